import { z } from 'zod';
import { JobResultSchema } from '../../core/content/job-result.ts';
import { cursorParam, jobIdPath, limitParam, PageEnvelopeSchema } from '../../shared/http/params.ts';
import { endpoint, http } from '../../shared/route-definition.ts';

export const getJobResultEndpoint = endpoint({
  id: 'getJobResult',
  method: 'GET',
  path: '/api/open/v1/jobs/{jobId}/result',
  handler: http('get-job-result'),
  auth: 'apiKey',
  scope: 'jobs:read',
  access: { table: 'read', signingKey: 'read', artifactsBucket: 'read' },
  summary: 'The immutable result of a finished job, with its artifacts',
  request: {
    path: jobIdPath,
    query: z.object({ limit: limitParam(1000, 500), cursor: cursorParam }).strict(),
  },
  responses: {
    200: {
      description:
        'The immutable result; its `artifacts` are paged (up to 1,000 a page, 500 by default; `total` counts them all), the rest comes whole with every page.',
      schema: PageEnvelopeSchema.extend({ result: JobResultSchema }),
    },
    404: { description: '`job_not_found`, `job_result_not_found`.' },
    409: { description: '`job_result_not_ready`: the job has not finished.' },
  },
});
