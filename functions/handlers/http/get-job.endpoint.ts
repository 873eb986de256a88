import { z } from 'zod';
import { JobSchema } from '../../core/jobs/model.ts';
import { jobIdPath } from '../../shared/http/params.ts';
import { endpoint, http } from '../../shared/route-definition.ts';

export const getJobEndpoint = endpoint({
  id: 'getJob',
  method: 'GET',
  path: '/api/open/v1/jobs/{jobId}',
  handler: http('get-job'),
  auth: 'apiKey',
  scope: 'jobs:read',
  access: { table: 'read' },
  summary: 'Get one job with its first files embedded',
  request: { path: jobIdPath },
  responses: {
    200: { description: 'The job.', schema: z.object({ job: JobSchema }) },
    404: { description: '`job_not_found`.' },
  },
});
