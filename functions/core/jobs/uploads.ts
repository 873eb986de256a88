import { ConflictError, InvalidRequestError } from '../errors.ts';
import { newId } from '../ids.ts';
import type { TokenSigner } from '../signing/signer.ts';
import { objectKeys } from '../storage-keys.ts';
import { presentJob, requireJob } from './jobs.ts';
import {
  type Classification,
  JOB_LIMITS,
  type JobFileRecord,
  type JobRecord,
  type RegisterUploadsCommand,
  type UploadInstruction,
} from './model.ts';
import type { DocumentLookup, JobStore, UploadStorage } from './ports.ts';

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
  input: {
    orgId: string;
    jobId: string;
    registration: RegisterUploadsCommand;
    settings: UploadSettings;
    now?: Date;
  },
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
  for (const file of input.registration.files) {
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
  checkJobLimits(job, addedBytes, created.length);
  for (const record of created) {
    if (record.uploadMode === 'multipart') {
      record.multipartUploadId = await deps.storage.createMultipart({
        key: record.objectKey,
        contentType: record.contentType,
      });
    }
  }
  if (created.length > 0) {
    const outcome = await deps.jobs.addFiles(job, created, JOB_LIMITS).catch(async (error: unknown) => {
      await abortSessions(deps.storage, created);
      throw error;
    });
    if (outcome !== 'added') {
      // Refused: nothing of this registration may stay behind in storage.
      await abortSessions(deps.storage, created);
      if (outcome === 'not_accepting') {
        throw new ConflictError(
          'job_not_accepting_uploads',
          'The job stopped accepting uploads; it is processing already.',
        );
      }
      // A concurrent registration changed the totals: answer what a retry would answer now.
      checkJobLimits(await requireJob(deps.jobs, input.orgId, input.jobId), addedBytes, created.length);
      throw new ConflictError(
        'job_limit_race',
        'Another registration for this job changed its totals at the same moment; these files still fit, so send the same request again.',
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

  // The configured lifetime, unless the signing credentials expire sooner (the URLs would stop working then).
  const ttlSeconds = Math.min(
    input.settings.urlTtlSeconds,
    (await deps.storage.signingLifetimeSeconds()) ?? Infinity,
  );
  const expiresAt = new Date(now.getTime() + ttlSeconds * 1000).toISOString();
  const uploads: UploadInstruction[] = [];
  for (const file of chosen) uploads.push(await instructionFor(deps, file, expiresAt, ttlSeconds));

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
  // Bound to this registration's expiry (and unique to it): a re-registration gets a new token, and
  // an old one stops working when its URLs do.
  const uploadToken = deps.tokens.sign({
    j: file.jobId,
    f: file.id,
    m: file.uploadMode,
    e: expiresAt,
    n: newId('reg'),
  });
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

/** The job's limits on declared bytes and files, checked before anything is written. */
function checkJobLimits(job: JobRecord, addedBytes: number, addedFiles: number): void {
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
  if (job.fileCount + addedFiles > JOB_LIMITS.maxFiles) {
    throw new InvalidRequestError(
      'job_file_limit_exceeded',
      `A job accepts at most ${JOB_LIMITS.maxFiles} files.`,
      {
        fileCount: job.fileCount,
        maxFiles: JOB_LIMITS.maxFiles,
      },
    );
  }
}

async function abortSessions(storage: UploadStorage, files: JobFileRecord[]): Promise<void> {
  for (const file of files) {
    if (!file.multipartUploadId) continue;
    // Best effort: the bucket's lifecycle rule aborts whatever is left after a day.
    await storage
      .abortMultipart({ key: file.objectKey, uploadId: file.multipartUploadId })
      .catch(() => undefined);
  }
}
