import { getProject } from '../../core/projects/queries.ts';
import { apiHandler } from '../../shared/http/api-handler.ts';
import { apiWiring } from '../../shared/wiring/api.ts';
import { getProjectEndpoint } from './get-project.endpoint.ts';

export const handler = apiHandler(getProjectEndpoint, async ({ path, principal }) => {
  const project = await getProject(
    { projects: apiWiring().projects },
    { orgId: principal.orgId, projectId: path.projectId },
  );
  return { status: 200, body: { project } };
});
