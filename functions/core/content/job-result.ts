import { z } from 'zod';
import { ErrorInfoSchema } from '../errors.ts';
import { ClassificationSchema, FILE_STATUSES } from '../jobs/model.ts';
import { ArtifactReferenceSchema } from './model.ts';

/**
 * The immutable result of a finished job, written once by the pipeline's finalize step. It stores
 * storage keys; the API turns each into an artifact reference of the job artifact endpoint.
 */
const JobResultFileSchema = z.object({
  fileId: z.string(),
  documentId: z.string(),
  fileName: z.string(),
  classification: ClassificationSchema,
  status: z.enum(FILE_STATUSES),
  pageCount: z.number().int(),
  successfulPageCount: z.number().int(),
  error: ErrorInfoSchema.nullable(),
});

const jobResultFields = {
  jobId: z.string(),
  projectId: z.string(),
  status: z.enum(['completed', 'failed']),
  completedAt: z.string(),
  pageCount: z.number().int(),
  successfulPageCount: z.number().int(),
  failedPageCount: z.number().int(),
  billing: z.object({ creditsDebited: z.number().int(), creditsReleased: z.number().int() }),
  files: z.array(JobResultFileSchema),
};

export const StoredArtifactSchema = z.object({
  type: z.enum(['region_crop', 'specification_file']),
  key: z.string(),
});
export type StoredArtifact = z.infer<typeof StoredArtifactSchema>;

export const StoredJobResultSchema = z.object({
  ...jobResultFields,
  artifacts: z.array(StoredArtifactSchema),
});
export type StoredJobResult = z.infer<typeof StoredJobResultSchema>;

export const JobResultSchema = z.object({ ...jobResultFields, artifacts: z.array(ArtifactReferenceSchema) });
