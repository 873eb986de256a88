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
  type OwnedJob,
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

type RegistrationDeps = {
  jobs: JobStore;
  documents: DocumentLookup;
  storage: UploadStorage;
  tokens: TokenSigner;
};
type RegisteredFile = RegisterUploadsCommand['files'][number];

/**
 * Register uploads.
 * Input: job, files (name, type, declared size, SHA-256, optional classification).
 * Output: the job (now `uploading`), one instruction per file, and document metadata.
 * Steps: check the job still accepts files; reuse files registered before with the same bytes and
 * name (fresh URLs) and plan the others; store the new ones within the job's limits; the job moves to
 * `uploading`; sign URLs that bind content type and checksum (direct) or part length (multipart).
 */
export async function registerUploads(
  deps: RegistrationDeps,
  input: {
    orgId: string;
    jobId: string;
    registration: RegisterUploadsCommand;
    settings: UploadSettings;
    now?: Date;
  },
) {
  const now = input.now ?? new Date();
  const job = await requireAcceptingJob(deps.jobs, input.orgId, input.jobId, now);
  const { chosen, created } = await planFiles(deps, job, input.registration.files, input.settings, now);
  await storeNewFiles(deps, job, created);
  await deps.jobs.transition(job.orgId, job.id, ['awaiting_uploads'], 'uploading', {
    progress: {
      ...job.progress,
      phase: 'uploading',
      message: 'Upload the files, then complete the uploads.',
      updatedAt: now.toISOString(),
    },
  });
  const uploads = await signInstructions(deps, chosen, input.settings, now);
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

/** The job, if it still accepts files: before processing starts and before it expires. */
async function requireAcceptingJob(
  jobs: JobStore,
  orgId: string,
  jobId: string,
  now: Date,
): Promise<OwnedJob> {
  const job = await requireJob(jobs, orgId, jobId);
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
  return job;
}

/**
 * The files this registration names: a file registered before with the same bytes and name is reused
 * (`chosen` only), the others are planned as new records (`chosen` and `created`), in request order.
 */
async function planFiles(
  deps: Pick<RegistrationDeps, 'jobs' | 'documents'>,
  job: OwnedJob,
  files: RegisteredFile[],
  settings: UploadSettings,
  now: Date,
): Promise<{ chosen: JobFileRecord[]; created: JobFileRecord[] }> {
  const existing = await deps.jobs.allFiles(job);
  const sameFile = (a: { sha256: string; fileName: string; fileSize: number }, b: typeof a) =>
    a.sha256 === b.sha256 && a.fileName === b.fileName && a.fileSize === b.fileSize;
  const chosen: JobFileRecord[] = [];
  const created: JobFileRecord[] = [];
  for (const file of files) {
    const already = [...existing, ...created].find((candidate) => sameFile(candidate, file));
    if (already) {
      if (!chosen.includes(already)) chosen.push(already);
      continue;
    }
    const duplicateOf = await deps.documents.readyDocumentWithDigest(job.projectId, file.sha256);
    const record = newFileRecord(job, file, settings, duplicateOf, now);
    created.push(record);
    chosen.push(record);
  }
  return { chosen, created };
}

/** A new file of the job, waiting for its bytes (direct PUT, or in parts from the multipart threshold). */
function newFileRecord(
  job: JobRecord,
  file: RegisteredFile,
  settings: UploadSettings,
  duplicateOfDocumentId: string | null,
  now: Date,
): JobFileRecord {
  const fileId = newId('fil');
  const multipart = file.fileSize >= settings.multipartThresholdBytes;
  return {
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
    objectKey: objectKeys.uploadedFile({ ...job, jobId: job.id }, fileId),
    uploadMode: multipart ? 'multipart' : 'direct_put',
    multipartUploadId: null,
    partSize: multipart ? choosePartSize(file.fileSize, settings.partSizeBytes) : null,
    duplicateOfDocumentId,
    createdAt: now.toISOString(),
    updatedAt: now.toISOString(),
  };
}

/**
 * Adds the new files to the job within its limits, their multipart sessions opened first. A refused
 * addition leaves nothing behind in storage; one refused by a concurrent registration answers what a
 * retry would answer now.
 */
async function storeNewFiles(
  deps: Pick<RegistrationDeps, 'jobs' | 'storage'>,
  job: OwnedJob,
  created: JobFileRecord[],
): Promise<void> {
  const addedBytes = created.reduce((sum, file) => sum + file.fileSize, 0);
  checkJobLimits(job, addedBytes, created.length);
  if (created.length === 0) return;
  for (const record of created) {
    if (record.uploadMode === 'multipart') {
      record.multipartUploadId = await deps.storage.createMultipart({
        key: record.objectKey,
        contentType: record.contentType,
      });
    }
  }
  const outcome = await deps.jobs.addFiles(job, created, JOB_LIMITS).catch(async (error: unknown) => {
    await abortSessions(deps.storage, created);
    throw error;
  });
  if (outcome === 'added') return;
  await abortSessions(deps.storage, created);
  if (outcome === 'not_accepting') {
    throw new ConflictError(
      'job_not_accepting_uploads',
      'The job stopped accepting uploads; it is processing already.',
    );
  }
  checkJobLimits(await requireJob(deps.jobs, job.orgId, job.id), addedBytes, created.length);
  throw new ConflictError(
    'job_limit_race',
    'Another registration for this job changed its totals at the same moment; these files still fit, so send the same request again.',
  );
}

/** One instruction per file, its URLs valid for the configured lifetime or until the signing credentials expire. */
async function signInstructions(
  deps: Pick<RegistrationDeps, 'storage' | 'tokens'>,
  files: JobFileRecord[],
  settings: UploadSettings,
  now: Date,
): Promise<UploadInstruction[]> {
  const ttlSeconds = Math.min(
    settings.urlTtlSeconds,
    (await deps.storage.signingLifetimeSeconds()) ?? Infinity,
  );
  const expiresAt = new Date(now.getTime() + ttlSeconds * 1000).toISOString();
  const uploads: UploadInstruction[] = [];
  for (const file of files) uploads.push(await instructionFor(deps, file, expiresAt, ttlSeconds));
  return uploads;
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
