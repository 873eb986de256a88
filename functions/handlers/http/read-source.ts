import { readSource } from '../../core/search/read-source.ts';
import { apiHandler } from '../../shared/http/api-handler.ts';
import { searchWiring } from '../../shared/wiring/search.ts';
import { readSourceEndpoint } from './read-source.endpoint.ts';

export const handler = apiHandler(readSourceEndpoint, async ({ path, query, principal }) => {
  const search = searchWiring();
  return {
    status: 200,
    body: await readSource(
      { projects: search.projects, index: search.index, artifacts: await search.artifactPaths() },
      {
        orgId: principal.orgId,
        projectId: path.projectId,
        uri: query.uri,
        offset: query.offset,
        limit: query.limit,
      },
    ),
  };
});
