import { z } from 'zod';
import { JobSchema } from '../../core/jobs/model.ts';
import { projectIdPath } from '../../shared/http/params.ts';
import { CreateJobBodySchema } from '../../shared/http/request-bodies.ts';
import { endpoint, http } from '../../shared/route-definition.ts';

export const createJobEndpoint = endpoint({
  id: 'createJob',
  method: 'POST',
  path: '/api/open/v1/projects/{projectId}/jobs',
  handler: http('create-job'),
  auth: 'apiKey',
  scope: 'jobs:write',
  access: { table: 'readwrite' },
  summary: 'Create a processing job in a ready project',
  request: { path: projectIdPath, body: CreateJobBodySchema },
  responses: {
    201: { description: 'The job, `awaiting_uploads`.', schema: z.object({ job: JobSchema }) },
    404: { description: '`project_not_found`.' },
    409: { description: '`project_not_ready`: the project is still provisioning (or failed).' },
  },
});
