import { z } from 'zod';
import { ErrorInfoSchema } from '../../core/errors.ts';
import { JobSchema } from '../../core/jobs/model.ts';
import { jobIdPath } from '../../shared/http/params.ts';
import { CompleteUploadsBodySchema } from '../../shared/http/request-bodies.ts';
import { endpoint, http } from '../../shared/route-definition.ts';

export const completeUploadsEndpoint = endpoint({
  id: 'completeUploads',
  method: 'POST',
  path: '/api/open/v1/jobs/{jobId}/uploads/complete',
  handler: http('complete-uploads'),
  auth: 'apiKey',
  scope: 'jobs:write',
  access: {
    table: 'readwrite',
    uploadsBucket: 'readwrite',
    signingKey: 'read',
    processJobStateMachine: 'start',
  },
  summary: 'Complete uploads; processing starts once no file is pending',
  request: { path: jobIdPath, body: CompleteUploadsBodySchema },
  responses: {
    200: {
      description:
        'The job, the outcome of each listed upload, and every file the job still waits for. Completing again is harmless.',
      schema: z.object({
        job: JobSchema,
        files: z.array(
          z.object({
            documentId: z.string(),
            status: z.string(),
            uploadStatus: z.string(),
            error: ErrorInfoSchema.nullable(),
          }),
        ),
        waitingFor: z
          .array(
            z.object({
              documentId: z.string(),
              fileName: z.string(),
              reason: z.enum(['upload_missing', 'not_completed']),
            }),
          )
          .describe(
            'The files the job still waits for before it starts (it stays `uploading` until this is empty): `upload_missing`, its bytes are not in storage yet (PUT them, or register again for a fresh URL, then complete again); `not_completed`, no completion has listed it yet.',
          ),
      }),
    },
    400: { description: '`invalid_upload_token`, `upload_mode_mismatch`, `invalid_request`.' },
    404: { description: '`job_not_found`.' },
  },
});
