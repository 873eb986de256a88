import { searchSources } from '../../core/search/search-sources.ts';
import { apiHandler } from '../../shared/http/api-handler.ts';
import { searchDeps } from '../../shared/search-container.ts';

export const handler = apiHandler('searchSources', async ({ path, body, principal }) => ({
  status: 200,
  body: await searchSources(searchDeps(), {
    orgId: principal.orgId,
    projectId: path.projectId,
    search: body,
  }),
}));
