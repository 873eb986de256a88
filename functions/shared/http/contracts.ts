import { z } from 'zod';
import { ApiKeySchema } from '../../core/auth/model.ts';
import { ErrorInfoSchema } from '../../core/errors.ts';
import {
  FILE_STATUSES,
  JOB_STATUSES,
  JobFileSchema,
  JobSchema,
  RegisteredDocumentSchema,
  UploadInstructionSchema,
} from '../../core/jobs/model.ts';
import { BillingSchema, ProjectOverviewSchema, ProjectSchema } from '../../core/projects/model.ts';
import { WebhookSchema } from '../../core/webhooks/model.ts';
import type { RouteId } from '../routes.ts';
import { CONTENT_CONTRACTS } from './content-contracts.ts';
import {
  booleanParam,
  cursorParam,
  jobIdPath,
  limitParam,
  PageEnvelopeSchema,
  projectIdPath,
} from './params.ts';
import {
  CompleteUploadsBodySchema,
  CreateApiKeyBodySchema,
  CreateJobBodySchema,
  CreateProjectBodySchema,
  PutWebhookBodySchema,
  RegisterUploadsBodySchema,
} from './request-bodies.ts';
import { REVIEW_CONTRACTS } from './review-contracts.ts';

export { ErrorEnvelopeSchema, PageEnvelopeSchema } from './params.ts';

/**
 * Request and response schemas of every route. Handlers validate with them and the OpenAPI
 * document is generated from them, so the documentation cannot drift from the code.
 */
export interface Contract {
  body?: z.ZodType;
  /** The code of a 400 for an invalid body, when the spec names one (`invalid_review`); else `invalid_request`. */
  bodyErrorCode?: string;
  /** Request headers the operation reads (documented; the handler validates them). */
  headers?: z.ZodType;
  query?: z.ZodType;
  path?: z.ZodType;
  responses: Record<number, { description: string; schema?: z.ZodType }>;
}

const JobStatusParam = z.enum(JOB_STATUSES);
const JobListSchema = z.object({ jobs: z.array(JobSchema), nextCursor: z.string().nullable() });

/** `projectId`/`project_id` and `activeOnly`/`active_only` are both accepted, as the spec says. */
const JobListQuerySchema = z
  .object({
    limit: limitParam(100, 20),
    cursor: cursorParam,
    projectId: z.string().max(64).optional(),
    project_id: z.string().max(64).optional(),
    status: JobStatusParam.optional(),
    activeOnly: booleanParam.optional(),
    active_only: booleanParam.optional(),
  })
  .strict()
  .refine((query) => !(query.projectId && query.project_id && query.projectId !== query.project_id), {
    message: 'projectId and project_id disagree',
    path: ['project_id'],
  })
  .refine(
    (query) =>
      !(
        query.activeOnly !== undefined &&
        query.active_only !== undefined &&
        query.activeOnly !== query.active_only
      ),
    {
      message: 'activeOnly and active_only disagree',
      path: ['active_only'],
    },
  )
  .transform(({ project_id, active_only, ...rest }) => ({
    ...rest,
    projectId: rest.projectId ?? project_id,
    activeOnly: rest.activeOnly ?? active_only,
  }));

export const CONTRACTS = {
  createProject: {
    body: CreateProjectBodySchema,
    responses: {
      202: {
        description: 'Project accepted; provisioning runs in the background.',
        schema: z.object({ project: ProjectSchema, billing: BillingSchema }),
      },
      402: { description: '`insufficient_credits`, with `requiredCredits` and `availableCredits`.' },
      409: {
        description:
          '`project_name_conflict`: the organization already has a project of that name (ignoring case).',
      },
    },
  },
  listProjects: {
    query: z
      .object({
        limit: limitParam(100, 25),
        cursor: cursorParam,
        include: z.enum(['overview']).optional().describe("`overview` adds each project's ProjectOverview."),
      })
      .strict(),
    responses: {
      200: {
        description: 'Projects, newest first.',
        schema: PageEnvelopeSchema.extend({
          projects: z.array(ProjectSchema.extend({ overview: ProjectOverviewSchema.optional() })),
        }),
      },
    },
  },
  getProject: {
    path: projectIdPath,
    responses: {
      200: { description: 'The project.', schema: z.object({ project: ProjectSchema }) },
      404: { description: "`project_not_found` (also for another organization's project)." },
    },
  },
  getProjectOverview: {
    path: projectIdPath,
    responses: {
      200: {
        description: 'Project and overview.',
        schema: z.object({ project: ProjectSchema, overview: ProjectOverviewSchema }),
      },
      404: { description: '`project_not_found`.' },
    },
  },
  createJob: {
    path: projectIdPath,
    body: CreateJobBodySchema,
    responses: {
      201: { description: 'The job, `awaiting_uploads`.', schema: z.object({ job: JobSchema }) },
      404: { description: '`project_not_found`.' },
      409: { description: '`project_not_ready`: the project is still provisioning (or failed).' },
    },
  },
  listProjectJobs: {
    path: projectIdPath,
    query: z
      .object({
        limit: limitParam(100, 20),
        cursor: cursorParam,
        status: JobStatusParam.optional(),
        activeOnly: booleanParam.optional(),
      })
      .strict(),
    responses: {
      200: { description: 'Jobs of the project, newest first.', schema: JobListSchema },
      404: { description: '`project_not_found`.' },
    },
  },
  listJobs: {
    query: JobListQuerySchema,
    responses: { 200: { description: 'Jobs of the organization, newest first.', schema: JobListSchema } },
  },
  getJob: {
    path: jobIdPath,
    responses: {
      200: { description: 'The job.', schema: z.object({ job: JobSchema }) },
      404: { description: '`job_not_found`.' },
    },
  },
  listJobFiles: {
    path: jobIdPath,
    query: z
      .object({ limit: limitParam(200, 100), cursor: cursorParam, status: z.enum(FILE_STATUSES).optional() })
      .strict(),
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
  },
  registerUploads: {
    path: jobIdPath,
    body: RegisterUploadsBodySchema,
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
  },
  completeUploads: {
    path: jobIdPath,
    body: CompleteUploadsBodySchema,
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
  },
  ...CONTENT_CONTRACTS,
  ...REVIEW_CONTRACTS,
  putWebhook: {
    body: PutWebhookBodySchema,
    responses: {
      200: {
        description:
          'The webhook and its signing secret (shown only here; setting the webhook again rotates it).',
        schema: z.object({ webhook: WebhookSchema, secret: z.string() }),
      },
      400: { description: '`invalid_request`: not an https URL, or a private address.' },
    },
  },
  getWebhook: {
    responses: {
      200: { description: 'The webhook.', schema: z.object({ webhook: WebhookSchema }) },
      404: { description: '`webhook_not_found`.' },
    },
  },
  deleteWebhook: {
    responses: {
      200: { description: 'Removed.', schema: z.object({ deleted: z.literal(true) }) },
      404: { description: '`webhook_not_found`.' },
    },
  },
  createApiKey: {
    body: CreateApiKeyBodySchema,
    responses: {
      201: {
        description: 'The key and its secret. The secret is shown only here.',
        schema: z.object({ key: ApiKeySchema, secret: z.string().describe('Bearer token; store it now.') }),
      },
    },
  },
  listApiKeys: {
    query: z.object({ limit: limitParam(100, 50), cursor: cursorParam }).strict(),
    responses: {
      200: {
        description: 'Keys of the organization, newest first.',
        schema: PageEnvelopeSchema.extend({ keys: z.array(ApiKeySchema) }),
      },
    },
  },
  revokeApiKey: {
    path: z.object({ keyId: z.string() }),
    responses: {
      200: { description: 'The revoked key.', schema: z.object({ key: ApiKeySchema }) },
      404: { description: '`api_key_not_found`.' },
    },
  },
} as const satisfies Record<RouteId, Contract>;

export type Contracts = typeof CONTRACTS;
