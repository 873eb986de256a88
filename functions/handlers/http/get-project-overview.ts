import { getProjectOverview } from '../../core/projects/queries.ts';
import { jobStore, projectStore } from '../../shared/container.ts';
import { apiHandler } from '../../shared/http/api-handler.ts';

export const handler = apiHandler('getProjectOverview', async ({ path, principal }) => {
  const result = await getProjectOverview(
    { projects: projectStore(), jobs: jobStore() },
    { orgId: principal.orgId, projectId: path.projectId },
  );
  return { status: 200, body: result };
});
