import { readSource } from '../../core/search/read-source.ts';
import { artifactPaths, projectStore } from '../../shared/container.ts';
import { apiHandler } from '../../shared/http/api-handler.ts';
import { sourceIndex } from '../../shared/search-container.ts';

export const handler = apiHandler('readSource', async ({ path, query, principal }) => ({
  status: 200,
  body: await readSource(
    { projects: projectStore(), index: sourceIndex(), artifacts: await artifactPaths() },
    {
      orgId: principal.orgId,
      projectId: path.projectId,
      uri: query.uri,
      offset: query.offset,
      limit: query.limit,
    },
  ),
}));
