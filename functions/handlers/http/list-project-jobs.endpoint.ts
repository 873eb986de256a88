import { z } from 'zod';
import {
  booleanParam,
  cursorParam,
  JobListSchema,
  JobStatusParam,
  limitParam,
  projectIdPath,
} from '../../shared/http/params.ts';
import { endpoint, http } from '../../shared/route-definition.ts';

export const listProjectJobsEndpoint = endpoint({
  id: 'listProjectJobs',
  method: 'GET',
  path: '/api/open/v1/projects/{projectId}/jobs',
  handler: http('list-project-jobs'),
  auth: 'apiKey',
  scope: 'jobs:read',
  access: { table: 'read', signingKey: 'read' },
  summary: 'List the jobs of one project, newest first',
  request: {
    path: projectIdPath,
    query: z
      .object({
        limit: limitParam(100, 20),
        cursor: cursorParam,
        status: JobStatusParam.optional(),
        activeOnly: booleanParam.optional(),
      })
      .strict(),
  },
  responses: {
    200: { description: 'Jobs of the project, newest first.', schema: JobListSchema },
    404: { description: '`project_not_found`.' },
  },
});
