import { z } from 'zod';
import { JobSchema, RegisteredDocumentSchema, UploadInstructionSchema } from '../../core/jobs/model.ts';
import { jobIdPath } from '../../shared/http/params.ts';
import { RegisterUploadsBodySchema } from '../../shared/http/request-bodies.ts';
import { endpoint, http } from '../../shared/route-definition.ts';

export const registerUploadsEndpoint = endpoint({
  id: 'registerUploads',
  method: 'POST',
  path: '/api/open/v1/jobs/{jobId}/uploads',
  handler: http('register-uploads'),
  auth: 'apiKey',
  scope: 'jobs:write',
  access: { table: 'readwrite', uploadsBucket: 'readwrite', signingKey: 'read' },
  summary: 'Register files and get signed upload instructions',
  request: { path: jobIdPath, body: RegisterUploadsBodySchema },
  responses: {
    200: {
      description: 'Signed upload instructions, one per file.',
      schema: z.object({
        job: JobSchema,
        uploads: z.array(UploadInstructionSchema),
        documents: z.array(RegisteredDocumentSchema),
      }),
    },
    400: { description: '`invalid_request`, `job_declared_bytes_exceeded`, `job_file_limit_exceeded`.' },
    404: { description: '`job_not_found`.' },
    409: { description: '`job_not_accepting_uploads` (processing started) or `job_expired`.' },
  },
});
