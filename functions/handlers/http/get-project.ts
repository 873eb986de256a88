import { getProject } from '../../core/projects/queries.ts';
import { apiHandler } from '../../shared/http/api-handler.ts';
import { apiWiring } from '../../shared/wiring/api.ts';

export const handler = apiHandler('getProject', async ({ path, principal }) => {
  const project = await getProject(
    { projects: apiWiring().projects },
    { orgId: principal.orgId, projectId: path.projectId },
  );
  return { status: 200, body: { project } };
});
