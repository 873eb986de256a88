import { listProjects } from '../../core/projects/queries.ts';
import { apiHandler } from '../../shared/http/api-handler.ts';
import { apiWiring } from '../../shared/wiring/api.ts';
import { listProjectsEndpoint } from './list-projects.endpoint.ts';

export const handler = apiHandler(listProjectsEndpoint, async ({ query, principal }) => {
  const result = await listProjects(
    { projects: apiWiring().projects, cursors: await apiWiring().cursors(), jobs: apiWiring().jobs },
    {
      orgId: principal.orgId,
      limit: query.limit,
      cursor: query.cursor,
      includeOverview: query.include === 'overview',
    },
  );
  return { status: 200, body: result };
});
