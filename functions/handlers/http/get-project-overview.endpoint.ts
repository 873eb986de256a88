import { z } from 'zod';
import { ProjectOverviewSchema, ProjectSchema } from '../../core/projects/model.ts';
import { projectIdPath } from '../../shared/http/params.ts';
import { endpoint, http } from '../../shared/route-definition.ts';

export const getProjectOverviewEndpoint = endpoint({
  id: 'getProjectOverview',
  method: 'GET',
  path: '/api/open/v1/projects/{projectId}/overview',
  handler: http('get-project-overview'),
  auth: 'apiKey',
  scope: 'jobs:read',
  access: { table: 'read' },
  summary: 'Counts, disciplines, latest job, next action and capabilities of a project',
  request: { path: projectIdPath },
  responses: {
    200: {
      description: 'Project and overview.',
      schema: z.object({ project: ProjectSchema, overview: ProjectOverviewSchema }),
    },
    404: { description: '`project_not_found`.' },
  },
});
