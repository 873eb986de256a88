/**
 * The request bodies of the HTTP API as the wire carries them: limits, defaults, strictness and the
 * messages a client sees. Handlers validate with these (through the contracts) and pass the parsed
 * values to the use cases as plain commands (`functions/core/<domain>/`), which know nothing of a
 * request; `satisfies` ties each body to the command it becomes, so the two cannot drift.
 */
import { z } from 'zod';
import { ScopeSchema } from '../../core/auth/model.ts';
import { SCOPES } from '../../core/auth/scopes.ts';
import { NORMALIZATION_MODES } from '../../core/content/normalize-regions.ts';
import type { CompleteUploadsCommand } from '../../core/jobs/complete-uploads.ts';
import { JOB_LIMITS } from '../../core/jobs/limits.ts';
import type { RegisterUploadsCommand } from '../../core/jobs/model.ts';
import { PROJECT_NAME_MAX } from '../../core/projects/model.ts';
import { type AskCommand, REVIEW_LIMITS } from '../../core/reviews/model.ts';
import {
  DEFAULT_MAX_HITS,
  type ProjectSearchQuery,
  SEARCH_MODES,
  type SourceSearchQuery,
} from '../../core/search/model.ts';
import { ENTITY_TYPES } from '../../core/search/sources.ts';
import { ClassificationSchema } from '../../engine/model.ts';

const FILE_NAME = z
  .string()
  .min(1)
  .max(255)
  .refine(
    (name) => !/[\p{Cc}/\\]/u.test(name),
    'must be a plain file name (no path separators or control characters)',
  )
  .refine((name) => name !== '.' && name !== '..', 'must be a plain file name');

export const CreateJobBodySchema = z
  .object({
    displayName: z.string().trim().min(1).max(180).optional(),
    externalId: z.string().trim().min(1).max(256).optional(),
  })
  .strict();

export const RegisterUploadsBodySchema = z
  .object({
    files: z
      .array(
        z
          .object({
            fileName: FILE_NAME,
            contentType: z
              .string()
              .max(255)
              .regex(
                /^[a-z0-9][a-z0-9!#$&^_.+-]*\/[a-z0-9][a-z0-9!#$&^_.+-]*$/i,
                'must be a MIME type such as application/pdf',
              ),
            fileSize: z
              .number()
              .int()
              .min(0)
              .max(
                JOB_LIMITS.maxFileBytes,
                'must be at most 1 GiB (1073741824 bytes), the largest file the extraction engine reads; split bigger PDFs',
              ),
            sha256: z.string().regex(/^[0-9a-f]{64}$/, 'must be 64 lowercase hexadecimal characters'),
            classification: ClassificationSchema.optional(),
          })
          .strict(),
      )
      .min(1, 'must hold at least 1 file')
      .max(JOB_LIMITS.filesPerRegistration, `must hold at most ${JOB_LIMITS.filesPerRegistration} files`),
  })
  .strict() satisfies z.ZodType<RegisterUploadsCommand>;

export const CompleteUploadsBodySchema = z
  .object({
    directUploads: z
      .array(z.object({ documentId: z.string().max(64), uploadToken: z.string().max(2048) }).strict())
      .max(JOB_LIMITS.filesPerRegistration)
      .default([]),
    multipartUploads: z
      .array(
        z
          .object({
            documentId: z.string().max(64),
            multipartUploadId: z.string().max(1024),
            uploadToken: z.string().max(2048),
            parts: z
              .array(
                z
                  .object({
                    partNumber: z.number().int().min(1).max(10_000),
                    etag: z.string().min(1).max(128),
                  })
                  .strict(),
              )
              .min(1)
              .max(10_000),
          })
          .strict(),
      )
      .max(JOB_LIMITS.filesPerRegistration)
      .default([]),
    cancelledUploads: z
      .array(z.object({ documentId: z.string().max(64), uploadToken: z.string().max(2048) }).strict())
      .max(JOB_LIMITS.filesPerRegistration)
      .default([])
      .describe(
        'Pending files to give up on (status `cancelled`), so the job processes without them: for a file whose bytes cannot be uploaded as declared.',
      ),
  })
  .strict()
  .refine(
    (body) => body.directUploads.length + body.multipartUploads.length + body.cancelledUploads.length > 0,
    {
      message: 'must list at least one upload in directUploads, multipartUploads or cancelledUploads',
      path: ['directUploads'],
    },
  ) satisfies z.ZodType<CompleteUploadsCommand>;

export const CreateProjectBodySchema = z
  .object({
    name: z
      .string()
      .transform((name) => name.trim())
      .pipe(
        z
          .string()
          .min(1, 'must not be empty')
          .max(PROJECT_NAME_MAX, `must be at most ${PROJECT_NAME_MAX} characters`)
          .refine((name) => !/\p{Cc}/u.test(name), 'must not contain control characters'),
      ),
  })
  .strict();

export const CreateApiKeyBodySchema = z
  .object({
    label: z.string().trim().min(1).max(120),
    scopes: z
      .array(ScopeSchema)
      .min(1)
      .max(SCOPES.length)
      .default([...SCOPES]),
    expiresAt: z.iso
      .datetime()
      .refine((value) => Date.parse(value) > Date.now(), 'must be in the future')
      .nullable()
      .default(null),
    rateLimitPerMinute: z.number().int().min(1).max(100_000).nullable().default(null),
  })
  .strict();

/** Control characters (NUL, line breaks, tabs, ...): a name is one line of text. */
const NO_CONTROL_CHARACTERS = /^\P{Cc}*$/u;

export const CreateReviewBodySchema = z
  .object({
    name: z
      .string()
      .trim()
      .min(1)
      .max(REVIEW_LIMITS.nameLength)
      .regex(NO_CONTROL_CHARACTERS, 'must be one line of text without control characters'),
  })
  .strict();

export const AskBodySchema = z
  .object({
    question: z.string().trim().min(1).max(REVIEW_LIMITS.questionLength),
    entityTypes: z.array(z.enum(ENTITY_TYPES)).min(1).optional(),
    fileIds: z.array(z.string().min(1).max(64)).min(1).max(REVIEW_LIMITS.fileIds).optional(),
  })
  .strict() satisfies z.ZodType<AskCommand>;

const filterText = (max: number) => z.string().trim().min(1).max(max);

export const SourceSearchBodySchema = z
  .object({
    query: z.string().trim().min(1).max(1000).describe('What to find; at least 1 character.'),
    mode: z
      .enum(SEARCH_MODES)
      .default('hybrid')
      .describe(
        '`exact`: BM25 over construction-aware tokens (identifiers, abbreviations, stems); `semantic`: embedding similarity; `hybrid` (default): both, fused by reciprocal rank.',
      ),
    reviewId: filterText(64).optional().describe("Scopes the search to a review's sources."),
    entityTypes: z
      .array(z.enum(ENTITY_TYPES))
      .min(1)
      .max(ENTITY_TYPES.length)
      .optional()
      .describe(
        '`region` (regions of drawing sheets), `specification` (sections and facets), `doc` (page text: pages of other documents, and the text of a drawing sheet outside its regions).',
      ),
    maxHits: z.number().int().min(1).max(50).default(DEFAULT_MAX_HITS),
    regionType: filterText(100).optional(),
    layoutType: filterText(100).optional(),
    drawingType: filterText(100).optional(),
    sheetNumber: filterText(100).optional().describe('Matched in canonical form: A-101 = A101 = A 101.'),
    fileName: filterText(255).optional().describe('Case-insensitive substring of the file name.'),
    pageNumber: z.number().int().min(1).max(100_000).optional(),
    classification: ClassificationSchema.optional(),
  })
  .strict() satisfies z.ZodType<SourceSearchQuery>;

export const ReconcileBodySchema = z
  .object({
    limit: z
      .number()
      .int()
      .min(1)
      .max(25)
      .default(5)
      .describe('Repair tasks the reconcile job scheduled by this request makes.'),
  })
  .strict();

export const ProjectSearchBodySchema = z
  .object({
    query: z
      .string()
      .trim()
      .min(1)
      .max(500)
      .describe('Matched against project names and, semantically and exactly, their sources.'),
    projectIds: z.array(z.string().max(64)).min(1).max(100).optional(),
    limit: z.number().int().min(1).max(100).default(25),
    cursor: z.string().max(2048).optional(),
    entityTypes: SourceSearchBodySchema.shape.entityTypes,
    regionType: filterText(100).optional(),
    layoutType: filterText(100).optional(),
    drawingType: filterText(100).optional(),
    sheetNumber: filterText(100).optional(),
    fileName: filterText(255).optional(),
    classification: ClassificationSchema.optional(),
    pageNumber: z.number().int().min(1).max(100_000).optional(),
  })
  .strict() satisfies z.ZodType<ProjectSearchQuery>;

export const NormalizeRegionsBodySchema = z
  .object({
    mode: z.enum(NORMALIZATION_MODES).default('missing_normalized_regions'),
    documentIds: z
      .array(z.string().min(1).max(64))
      .min(1, 'must hold at least 1 document id (leave it out to consider every ready document)')
      .max(JOB_LIMITS.maxFiles, `must hold at most ${JOB_LIMITS.maxFiles} document ids`)
      .optional(),
  })
  .strict();

export const PutWebhookBodySchema = z
  .object({
    url: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).max(2048),
    events: z
      .array(z.enum(['job.completed', 'job.failed']))
      .min(1)
      .default(['job.completed', 'job.failed']),
  })
  .strict();
