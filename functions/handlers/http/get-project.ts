import { getProject } from '../../core/projects/queries.ts';
import { projectStore } from '../../shared/container.ts';
import { apiHandler } from '../../shared/http/api-handler.ts';

export const handler = apiHandler('getProject', async ({ path, principal }) => {
  const project = await getProject(
    { projects: projectStore() },
    { orgId: principal.orgId, projectId: path.projectId },
  );
  return { status: 200, body: { project } };
});
