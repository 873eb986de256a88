import { z } from 'zod';
import { FILE_STATUSES, JobFileSchema } from '../../core/jobs/model.ts';
import { cursorParam, jobIdPath, limitParam } from '../../shared/http/params.ts';
import { endpoint, http } from '../../shared/route-definition.ts';

export const listJobFilesEndpoint = endpoint({
  id: 'listJobFiles',
  method: 'GET',
  path: '/api/open/v1/jobs/{jobId}/files',
  handler: http('list-job-files'),
  auth: 'apiKey',
  scope: 'jobs:read',
  access: { table: 'read', signingKey: 'read' },
  summary: 'Page through all files of a job',
  request: {
    path: jobIdPath,
    query: z
      .object({ limit: limitParam(200, 100), cursor: cursorParam, status: z.enum(FILE_STATUSES).optional() })
      .strict(),
  },
  responses: {
    200: {
      description: 'Files of the job in registration order.',
      schema: z.object({
        cursor: z.string().nullable(),
        fileCount: z.number().int().describe('Files matching the status filter, across all pages.'),
        files: z.array(JobFileSchema),
        nextCursor: z.string().nullable(),
      }),
    },
    404: { description: '`job_not_found`.' },
  },
});
