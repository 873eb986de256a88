import { z } from 'zod';
import { ProjectSchema } from '../../core/projects/model.ts';
import { projectIdPath } from '../../shared/http/params.ts';
import { endpoint, http } from '../../shared/route-definition.ts';

export const getProjectEndpoint = endpoint({
  id: 'getProject',
  method: 'GET',
  path: '/api/open/v1/projects/{projectId}',
  handler: http('get-project'),
  auth: 'apiKey',
  scope: 'jobs:read',
  access: { table: 'read' },
  summary: 'Get one project (poll it until it is ready)',
  request: { path: projectIdPath },
  responses: {
    200: { description: 'The project.', schema: z.object({ project: ProjectSchema }) },
    404: { description: "`project_not_found` (also for another organization's project)." },
  },
});
