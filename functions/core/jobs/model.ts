import { z } from 'zod';
// The one list of classifications is the extraction engine's (a domain every other may depend on).
import { type Classification, ClassificationSchema } from '../../engine/model.ts';
import { ErrorInfoSchema } from '../errors.ts';
import { JOB_LIMITS } from './limits.ts';
import { JOB_STATUSES, type JobStatus } from './statuses.ts';

export { CLASSIFICATIONS, type Classification, ClassificationSchema } from '../../engine/model.ts';

export { JOB_LIMITS } from './limits.ts';
export { ACTIVE_JOB_STATUSES, JOB_STATUSES, type JobStatus } from './statuses.ts';

export const FILE_STATUSES = ['processing', 'ready', 'error', 'cancelled'] as const;
export type FileStatus = (typeof FILE_STATUSES)[number];

export const JobFileSchema = z.object({
  id: z.string(),
  documentId: z.string(),
  fileName: z.string(),
  contentType: z.string(),
  fileSize: z.number().int(),
  classification: ClassificationSchema,
  pageCount: z.number().int(),
  successfulPageCount: z.number().int(),
  status: z.enum(FILE_STATUSES),
  uploadStatus: z
    .enum(['pending', 'uploaded', 'failed'])
    .describe(
      '`pending` until completed, `uploaded` once storage holds the declared bytes, `failed` otherwise.',
    ),
  error: ErrorInfoSchema.nullable(),
});
export type JobFile = z.infer<typeof JobFileSchema>;

/**
 * `ingest`: files a client uploads and the pipeline extracts (and charges for). Repair jobs, free and
 * without uploads, over documents already in the project: `region_normalization` (`POST …/regions/
 * normalize`), `index_reconciliation` (`POST …/source-index/reconcile`, which indexes them again).
 */
export const JOB_KINDS = ['ingest', 'region_normalization', 'index_reconciliation'] as const;
export type JobKind = (typeof JOB_KINDS)[number];

export const JobSchema = z.object({
  id: z.string(),
  kind: z
    .enum(JOB_KINDS)
    .describe('`ingest` (uploads); free repair jobs: `region_normalization`, `index_reconciliation`.'),
  displayName: z.string(),
  activityLabel: z.string(),
  externalId: z.string().nullable(),
  status: z.enum(JOB_STATUSES),
  projectId: z.string(),
  project: z.object({ id: z.string(), name: z.string() }),
  pageCount: z.number().int(),
  successfulPageCount: z.number().int(),
  failedPageCount: z.number().int(),
  progress: z.object({
    processedPages: z.number().int(),
    totalPages: z.number().int(),
    percent: z.number().int(),
    phase: z.string(),
    message: z.string(),
    updatedAt: z.string(),
  }),
  resultUrl: z.string(),
  billing: z.object({ creditsDebited: z.number().int(), creditsReserved: z.number().int() }),
  files: z.array(JobFileSchema),
  filesTruncated: z.boolean(),
  limits: z.object({
    maxDeclaredBytes: z.number().int(),
    maxFiles: z.number().int(),
    maxFileBytes: z.number().int().describe('Largest file a job accepts, in bytes.'),
  }),
  error: ErrorInfoSchema.nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  completedAt: z.string().nullable(),
  expiresAt: z.string().describe('Uploads must be registered and completed before this time.'),
});
export type Job = z.infer<typeof JobSchema>;

/** What the table stores for a job (files are separate items). */
declare const ownershipChecked: unique symbol;

/**
 * A job read under its organization's key. The job's files are keyed by job, not by organization:
 * the store's file readers take an owned job, so a file is never read before the ownership check.
 */
export type OwnedJob = JobRecord & { readonly [ownershipChecked]: true };
export type OwnedJobRef = Pick<OwnedJob, 'id' | typeof ownershipChecked>;

export interface JobRecord {
  orgId: string;
  id: string;
  projectId: string;
  projectName: string;
  /** Absent on jobs written before repair jobs existed: `ingest`. */
  kind?: JobKind;
  displayName: string;
  externalId: string | null;
  status: JobStatus;
  declaredBytes: number;
  fileCount: number;
  pageCount: number;
  successfulPageCount: number;
  failedPageCount: number;
  progress: Job['progress'];
  creditsReserved: number;
  creditsDebited: number;
  error: Job['error'];
  createdAt: string;
  updatedAt: string;
  completedAt: string | null;
  expiresAt: string;
}

export interface JobFileRecord extends JobFile {
  jobId: string;
  orgId: string;
  projectId: string;
  sha256: string;
  objectKey: string;
  /** False when the client left classification out: preflight classifies the file. */
  classificationDeclared: boolean;
  uploadMode: 'direct_put' | 'multipart';
  multipartUploadId: string | null;
  partSize: number | null;
  /** Pages per extraction task, chosen at preflight. */
  pagesPerBatch?: number;
  /**
   * Pages that print no text, found at inspection (at most `MAX_PAGES_WITHOUT_TEXT_KEPT`): their batches
   * run first, so the slowest pages do not finish last.
   */
  pagesWithoutText?: number[];
  /** Set when the same bytes are already a ready document of the project: no extraction, no charge. */
  duplicateOfDocumentId: string | null;
  createdAt: string;
  updatedAt: string;
}

const ACTIVITY_LABELS: Record<JobStatus, string> = {
  provisioning: 'Preparing the job',
  awaiting_uploads: 'Waiting for files to be registered',
  uploading: 'Waiting for uploads to complete',
  preflighting: 'Checking files and reserving credits',
  processing: 'Extracting sheets, regions and specifications',
  completed: 'Completed',
  failed: 'Failed',
};

const ACTIVITY_LABELS_BY_KIND: Record<JobKind, Partial<Record<JobStatus, string>>> = {
  ingest: {},
  region_normalization: { processing: 'Normalizing region data' },
  index_reconciliation: { processing: 'Indexing documents again' },
};

export const jobKind = (record: Pick<JobRecord, 'kind'>): JobKind => record.kind ?? 'ingest';

/** A job as it starts: nothing counted, debited or failed yet; `pageCount` pages to come. */
export function newJobRecord(input: {
  orgId: string;
  id: string;
  project: { id: string; name: string };
  kind?: JobKind;
  displayName: string;
  externalId: string | null;
  status: JobStatus;
  fileCount: number;
  pageCount: number;
  message: string;
  now: string;
  expiresAt: string;
}): JobRecord {
  return {
    orgId: input.orgId,
    id: input.id,
    projectId: input.project.id,
    projectName: input.project.name,
    ...(input.kind ? { kind: input.kind } : {}),
    displayName: input.displayName,
    externalId: input.externalId,
    status: input.status,
    declaredBytes: 0,
    fileCount: input.fileCount,
    pageCount: input.pageCount,
    successfulPageCount: 0,
    failedPageCount: 0,
    progress: {
      processedPages: 0,
      totalPages: input.pageCount,
      percent: 0,
      phase: input.status,
      message: input.message,
      updatedAt: input.now,
    },
    creditsReserved: 0,
    creditsDebited: 0,
    error: null,
    createdAt: input.now,
    updatedAt: input.now,
    completedAt: null,
    expiresAt: input.expiresAt,
  };
}

export function toPublicJobFile(record: JobFileRecord): JobFile {
  return {
    id: record.id,
    documentId: record.documentId,
    fileName: record.fileName,
    contentType: record.contentType,
    fileSize: record.fileSize,
    classification: record.classification,
    pageCount: record.pageCount,
    successfulPageCount: record.successfulPageCount,
    status: record.status,
    uploadStatus: record.uploadStatus,
    error: record.error,
  };
}

export function resultPath(jobId: string): string {
  return `/api/open/v1/jobs/${jobId}/result`;
}

export function toPublicJob(record: JobRecord, files: JobFileRecord[], filesTruncated: boolean): Job {
  return {
    id: record.id,
    kind: jobKind(record),
    displayName: record.displayName,
    activityLabel: ACTIVITY_LABELS_BY_KIND[jobKind(record)][record.status] ?? ACTIVITY_LABELS[record.status],
    externalId: record.externalId,
    status: record.status,
    projectId: record.projectId,
    project: { id: record.projectId, name: record.projectName },
    pageCount: record.pageCount,
    successfulPageCount: record.successfulPageCount,
    failedPageCount: record.failedPageCount,
    progress: record.progress,
    resultUrl: resultPath(record.id),
    billing: { creditsDebited: record.creditsDebited, creditsReserved: record.creditsReserved },
    files: files.map(toPublicJobFile),
    filesTruncated,
    limits: {
      maxDeclaredBytes: JOB_LIMITS.maxDeclaredBytes,
      maxFiles: JOB_LIMITS.maxFiles,
      maxFileBytes: JOB_LIMITS.maxFileBytes,
    },
    error: record.error,
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
    completedAt: record.completedAt,
    expiresAt: record.expiresAt,
  };
}

// ---- request bodies ----

export const UploadInstructionSchema = z.object({
  documentId: z.string(),
  uploadMode: z.enum(['direct_put', 'multipart']),
  uploadUrl: z.string().optional(),
  uploadHeaders: z.record(z.string(), z.string()).optional(),
  uploadToken: z.string(),
  expiresAt: z.string(),
  multipartUploadId: z.string().optional(),
  partSize: z.number().int().optional(),
  parts: z
    .array(
      z.object({
        partNumber: z.number().int(),
        startByte: z.number().int(),
        endByteExclusive: z.number().int(),
        uploadUrl: z.string(),
        uploadHeaders: z.record(z.string(), z.string()),
      }),
    )
    .optional(),
});
export type UploadInstruction = z.infer<typeof UploadInstructionSchema>;

export const RegisteredDocumentSchema = z.object({
  documentId: z.string(),
  fileId: z.string(),
  fileName: z.string(),
  sha256: z.string(),
  uploadMode: z.enum(['direct_put', 'multipart']),
  duplicateOfDocumentId: z
    .string()
    .nullable()
    .describe(
      'Set when these bytes are already a ready document of the project: uploading is optional, nothing is extracted or charged again.',
    ),
  uploadRequired: z.boolean(),
});

/** One file a client registers for upload, declared up front: name, media type, size and SHA-256. */
export interface FileRegistration {
  fileName: string;
  contentType: string;
  fileSize: number;
  sha256: string;
  classification?: Classification;
}

/** A batch of files to register in a job. */
export interface RegisterUploadsCommand {
  files: FileRegistration[];
}
