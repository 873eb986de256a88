import { searchProjects } from '../../core/search/search-projects.ts';
import { cursorCodec } from '../../shared/container.ts';
import { apiHandler } from '../../shared/http/api-handler.ts';
import { searchDeps } from '../../shared/search-container.ts';

export const handler = apiHandler('searchProjects', async ({ body, principal }) => ({
  status: 200,
  body: await searchProjects(
    { ...searchDeps(), cursors: await cursorCodec() },
    { orgId: principal.orgId, search: body },
  ),
}));
