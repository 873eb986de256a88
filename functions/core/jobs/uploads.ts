import { ConflictError, InvalidRequestError } from '../errors.ts';
import { newId } from '../ids.ts';
import type { TokenSigner } from '../signing/signer.ts';
import { objectKeys } from '../storage-keys.ts';
import { presentJob, requireJob } from './jobs.ts';
import {
  type Classification,
  JOB_LIMITS,
  type Job,
  type JobFileRecord,
  type JobRecord,
  type RegisterUploadsBody,
  type UploadInstruction,
} from './model.ts';
import type { DocumentLookup, JobStore, ProcessingStarter, UploadStorage } from './ports.ts';

export interface UploadSettings {
  /** Files of at least this many bytes upload in parts. */
  multipartThresholdBytes: number;
  /** Target part size; raised when a file would need more than 10,000 parts. */
  partSizeBytes: number;
  urlTtlSeconds: number;
}

const MIN_PART = 5 * 1024 * 1024;
const MAX_PART = 5 * 1024 * 1024 * 1024;
const MAX_PARTS = 10_000;
const MIB = 1024 * 1024;

/** S3 limits: parts of 5 MiB to 5 GiB (the last may be smaller), at most 10,000 of them. */
export function choosePartSize(fileSize: number, target: number): number {
  const needed = Math.ceil(fileSize / MAX_PARTS / MIB) * MIB;
  return Math.min(MAX_PART, Math.max(MIN_PART, target, needed));
}

const ACCEPTING: JobRecord['status'][] = ['awaiting_uploads', 'uploading'];

/**
 * Register uploads.
 * Input: job, files (name, type, declared size, SHA-256, optional classification).
 * Output: the job (now `uploading`), one instruction per file, and document metadata.
 * Steps: reuse files registered before with the same bytes and name (fresh URLs); add the others
 * within the job's limits; sign URLs that bind content type and checksum (direct) or part length
 * (multipart); the job moves to `uploading`.
 */
export async function registerUploads(
  deps: {
    jobs: JobStore;
    documents: DocumentLookup;
    storage: UploadStorage;
    tokens: TokenSigner;
  },
  input: { orgId: string; jobId: string; body: RegisterUploadsBody; settings: UploadSettings; now?: Date },
) {
  const now = input.now ?? new Date();
  const job = await requireJob(deps.jobs, input.orgId, input.jobId);
  if (!ACCEPTING.includes(job.status)) {
    throw new ConflictError(
      'job_not_accepting_uploads',
      `The job is ${job.status}; files can only be registered before processing starts.`,
      {
        jobStatus: job.status,
      },
    );
  }
  if (Date.parse(job.expiresAt) <= now.getTime()) {
    throw new ConflictError(
      'job_expired',
      'The job expired before its uploads were completed; create a new job.',
    );
  }

  const existing = await deps.jobs.allFiles(job);
  const sameFile = (a: { sha256: string; fileName: string; fileSize: number }, b: typeof a) =>
    a.sha256 === b.sha256 && a.fileName === b.fileName && a.fileSize === b.fileSize;

  const chosen: JobFileRecord[] = [];
  const created: JobFileRecord[] = [];
  for (const file of input.body.files) {
    const already = [...existing, ...created].find((candidate) => sameFile(candidate, file));
    if (already) {
      if (!chosen.includes(already)) chosen.push(already);
      continue;
    }
    const fileId = newId('fil');
    const multipart = file.fileSize >= input.settings.multipartThresholdBytes;
    const key = objectKeys.uploadedFile({ ...job, jobId: job.id }, fileId);
    const record: JobFileRecord = {
      id: fileId,
      documentId: newId('doc'),
      jobId: job.id,
      orgId: job.orgId,
      projectId: job.projectId,
      fileName: file.fileName,
      contentType: file.contentType,
      fileSize: file.fileSize,
      sha256: file.sha256,
      classification: (file.classification ?? 'other') as Classification,
      classificationDeclared: file.classification !== undefined,
      pageCount: 0,
      successfulPageCount: 0,
      status: 'processing',
      uploadStatus: 'pending',
      error: null,
      objectKey: key,
      uploadMode: multipart ? 'multipart' : 'direct_put',
      multipartUploadId: null,
      partSize: multipart ? choosePartSize(file.fileSize, input.settings.partSizeBytes) : null,
      duplicateOfDocumentId: await deps.documents.readyDocumentWithDigest(job.projectId, file.sha256),
      createdAt: now.toISOString(),
      updatedAt: now.toISOString(),
    };
    created.push(record);
    chosen.push(record);
  }

  const addedBytes = created.reduce((sum, file) => sum + file.fileSize, 0);
  if (job.declaredBytes + addedBytes > JOB_LIMITS.maxDeclaredBytes) {
    throw new InvalidRequestError(
      'job_declared_bytes_exceeded',
      `These files would bring the job to ${job.declaredBytes + addedBytes} declared bytes; a job accepts at most ${JOB_LIMITS.maxDeclaredBytes}.`,
      {
        declaredBytes: job.declaredBytes,
        requestedBytes: addedBytes,
        maxDeclaredBytes: JOB_LIMITS.maxDeclaredBytes,
      },
    );
  }
  if (job.fileCount + created.length > JOB_LIMITS.maxFiles) {
    throw new InvalidRequestError(
      'job_file_limit_exceeded',
      `A job accepts at most ${JOB_LIMITS.maxFiles} files.`,
      {
        fileCount: job.fileCount,
        maxFiles: JOB_LIMITS.maxFiles,
      },
    );
  }
  for (const record of created) {
    if (record.uploadMode === 'multipart') {
      record.multipartUploadId = await deps.storage.createMultipart({
        key: record.objectKey,
        contentType: record.contentType,
      });
    }
  }
  if (created.length > 0) {
    const outcome = await deps.jobs.addFiles(job, created, JOB_LIMITS);
    if (outcome === 'limit_exceeded') {
      throw new ConflictError(
        'job_limit_race',
        'Another registration for this job changed its totals; retry the request.',
      );
    }
    if (outcome === 'not_accepting') {
      throw new ConflictError(
        'job_not_accepting_uploads',
        'The job stopped accepting uploads; it is processing already.',
      );
    }
  }
  await deps.jobs.transition(job.orgId, job.id, ['awaiting_uploads'], 'uploading', {
    progress: {
      ...job.progress,
      phase: 'uploading',
      message: 'Upload the files, then complete the uploads.',
      updatedAt: now.toISOString(),
    },
  });

  const expiresAt = new Date(now.getTime() + input.settings.urlTtlSeconds * 1000).toISOString();
  const uploads: UploadInstruction[] = [];
  for (const file of chosen)
    uploads.push(await instructionFor(deps, file, expiresAt, input.settings.urlTtlSeconds));

  const fresh = await requireJob(deps.jobs, input.orgId, input.jobId);
  return {
    job: await presentJob(deps.jobs, fresh),
    uploads,
    documents: chosen.map((file) => ({
      documentId: file.documentId,
      fileId: file.id,
      fileName: file.fileName,
      sha256: file.sha256,
      uploadMode: file.uploadMode,
      duplicateOfDocumentId: file.duplicateOfDocumentId,
      uploadRequired: file.duplicateOfDocumentId === null && file.uploadStatus === 'pending',
    })),
  };
}

async function instructionFor(
  deps: { storage: UploadStorage; tokens: TokenSigner },
  file: JobFileRecord,
  expiresAt: string,
  ttl: number,
): Promise<UploadInstruction> {
  const uploadToken = deps.tokens.sign({ j: file.jobId, f: file.id, m: file.uploadMode });
  if (file.uploadMode === 'direct_put') {
    const signed = await deps.storage.presignPut({
      key: file.objectKey,
      contentType: file.contentType,
      sha256Base64: Buffer.from(file.sha256, 'hex').toString('base64'),
      expiresInSeconds: ttl,
    });
    return {
      documentId: file.documentId,
      uploadMode: 'direct_put',
      uploadUrl: signed.url,
      uploadHeaders: signed.headers,
      uploadToken,
      expiresAt,
    };
  }
  const partSize = file.partSize ?? MIN_PART;
  const parts: NonNullable<UploadInstruction['parts']> = [];
  for (
    let start = 0, partNumber = 1;
    start < file.fileSize || partNumber === 1;
    start += partSize, partNumber++
  ) {
    const end = Math.min(file.fileSize, start + partSize);
    const signed = await deps.storage.presignPart({
      key: file.objectKey,
      uploadId: file.multipartUploadId ?? '',
      partNumber,
      contentLength: end - start,
      expiresInSeconds: ttl,
    });
    parts.push({
      partNumber,
      startByte: start,
      endByteExclusive: end,
      uploadUrl: signed.url,
      uploadHeaders: signed.headers,
    });
    if (end >= file.fileSize) break;
  }
  return {
    documentId: file.documentId,
    uploadMode: 'multipart',
    uploadToken,
    expiresAt,
    multipartUploadId: file.multipartUploadId ?? '',
    partSize,
    parts,
  };
}

export interface CompleteUploadsInput {
  directUploads: { documentId: string; uploadToken: string }[];
  multipartUploads: {
    documentId: string;
    multipartUploadId: string;
    uploadToken: string;
    parts: { partNumber: number; etag: string }[];
  }[];
}

/**
 * Complete uploads.
 * Input: the direct and multipart uploads the client finished.
 * Output: the job and, per listed document, its upload outcome.
 * Steps: check each token; complete multipart sessions; check each object exists with its declared
 * size (its SHA-256 is bound by the signed URL for direct PUTs and verified again, streamed, in
 * preflight). A file that fails gets `error` and the others go on. Once no file is pending the job
 * moves to `preflighting` and processing starts. Completing again changes nothing.
 */
export async function completeUploads(
  deps: { jobs: JobStore; storage: UploadStorage; tokens: TokenSigner; processing: ProcessingStarter },
  input: { orgId: string; jobId: string; body: CompleteUploadsInput },
): Promise<{
  job: Job;
  files: { documentId: string; status: string; uploadStatus: string; error: JobFileRecord['error'] }[];
}> {
  const job = await requireJob(deps.jobs, input.orgId, input.jobId);
  const files = await deps.jobs.allFiles(job);
  const byDocument = new Map(files.map((file) => [file.documentId, file]));

  const entries = [
    ...input.body.directUploads.map((entry) => ({
      ...entry,
      mode: 'direct_put' as const,
      multipartUploadId: null,
      parts: [],
    })),
    ...input.body.multipartUploads.map((entry) => ({ ...entry, mode: 'multipart' as const })),
  ];
  const seen = new Set<string>();
  for (const entry of entries) {
    const file = byDocument.get(entry.documentId);
    const token = deps.tokens.verify(entry.uploadToken);
    if (!file || !token || token.j !== job.id || token.f !== file.id) {
      throw new InvalidRequestError(
        'invalid_upload_token',
        `Unknown document ${entry.documentId} or an upload token that does not belong to it.`,
      );
    }
    if (file.uploadMode !== entry.mode || token.m !== entry.mode) {
      throw new InvalidRequestError(
        'upload_mode_mismatch',
        `Document ${entry.documentId} was registered for ${file.uploadMode}; list it under ${file.uploadMode === 'multipart' ? 'multipartUploads' : 'directUploads'}.`,
      );
    }
    if (seen.has(file.id))
      throw new InvalidRequestError('invalid_request', `Document ${entry.documentId} is listed twice.`);
    seen.add(file.id);
  }

  for (const entry of entries) {
    const file = byDocument.get(entry.documentId) as JobFileRecord;
    if (file.uploadStatus !== 'pending') continue;
    const failure = await checkUpload(deps.storage, file, entry);
    const changes: Partial<JobFileRecord> = failure
      ? { uploadStatus: 'failed', status: 'error', error: failure }
      : { uploadStatus: 'uploaded' };
    await deps.jobs.updateFile(file, changes);
    Object.assign(file, changes);
  }

  if (job.status === 'uploading' && files.every((file) => file.uploadStatus !== 'pending')) {
    const moved = await deps.jobs.transition(job.orgId, job.id, ['uploading'], 'preflighting', {
      progress: {
        ...job.progress,
        phase: 'preflighting',
        message: 'Checking files.',
        updatedAt: new Date().toISOString(),
      },
    });
    if (moved) await deps.processing.start(job.orgId, job.id);
  }

  const fresh = await requireJob(deps.jobs, input.orgId, input.jobId);
  return {
    job: await presentJob(deps.jobs, fresh),
    files: entries.map((entry) => {
      const file = byDocument.get(entry.documentId) as JobFileRecord;
      return {
        documentId: file.documentId,
        status: file.status,
        uploadStatus: file.uploadStatus,
        error: file.error,
      };
    }),
  };
}

async function checkUpload(
  storage: UploadStorage,
  file: JobFileRecord,
  entry: {
    mode: 'direct_put' | 'multipart';
    multipartUploadId: string | null;
    parts: { partNumber: number; etag: string }[];
  },
): Promise<JobFileRecord['error']> {
  if (entry.mode === 'multipart') {
    if (entry.multipartUploadId !== file.multipartUploadId) {
      return {
        code: 'multipart_upload_mismatch',
        message: 'multipartUploadId does not match the one issued for this document.',
      };
    }
    try {
      await storage.completeMultipart({
        key: file.objectKey,
        uploadId: entry.multipartUploadId ?? '',
        parts: [...entry.parts].sort((a, b) => a.partNumber - b.partNumber),
      });
    } catch (error) {
      // Already completed by an earlier call that failed before recording it: the object decides.
      const present = await storage.head(file.objectKey);
      if (!present) {
        return {
          code: 'multipart_incomplete',
          message: `Storage refused to assemble the parts (${(error as Error).name}): upload every part and send each part's ETag.`,
        };
      }
    }
  }
  const object = await storage.head(file.objectKey);
  if (!object) {
    if (file.duplicateOfDocumentId) return null;
    return {
      code: 'upload_missing',
      message:
        'Storage holds no object for this file: PUT it to its signed URL with every uploadHeaders header, then complete again with a new registration.',
    };
  }
  if (object.size !== file.fileSize) {
    return {
      code: 'size_mismatch',
      message: `Declared ${file.fileSize} bytes but storage holds ${object.size}.`,
    };
  }
  return null;
}
