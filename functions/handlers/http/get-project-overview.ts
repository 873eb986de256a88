import { getProjectOverview } from '../../core/projects/queries.ts';
import { apiHandler } from '../../shared/http/api-handler.ts';
import { apiWiring } from '../../shared/wiring/api.ts';
import { getProjectOverviewEndpoint } from './get-project-overview.endpoint.ts';

export const handler = apiHandler(getProjectOverviewEndpoint, async ({ path, principal }) => {
  const result = await getProjectOverview(
    { projects: apiWiring().projects, jobs: apiWiring().jobs },
    { orgId: principal.orgId, projectId: path.projectId },
  );
  return { status: 200, body: result };
});
