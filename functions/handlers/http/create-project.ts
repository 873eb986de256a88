import { createProject } from '../../core/projects/create-project.ts';
import { config } from '../../shared/config.ts';
import { apiHandler } from '../../shared/http/api-handler.ts';
import { apiWiring } from '../../shared/wiring/api.ts';
import { createProjectEndpoint } from './create-project.endpoint.ts';

export const handler = apiHandler(createProjectEndpoint, async ({ body, principal }) => {
  const result = await createProject(
    { projects: apiWiring().projects, provisioning: apiWiring().provisioning },
    { orgId: principal.orgId, name: body.name, price: config.PROJECT_CREATION_PRICE },
  );
  return { status: 202, body: result };
});
