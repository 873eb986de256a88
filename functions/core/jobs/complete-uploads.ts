import { InvalidRequestError } from '../errors.ts';
import type { TokenSigner } from '../signing/signer.ts';
import { presentJob, requireJob } from './jobs.ts';
import type { Job, JobFileRecord } from './model.ts';
import type { JobStore, ProcessingStarter, UploadStorage } from './ports.ts';

/** The one completion failure a client can still repair in the same job: the bytes are not there yet. */
const UPLOAD_MISSING = 'upload_missing';

export interface CompleteUploadsCommand {
  directUploads: { documentId: string; uploadToken: string }[];
  multipartUploads: {
    documentId: string;
    multipartUploadId: string;
    uploadToken: string;
    parts: { partNumber: number; etag: string }[];
  }[];
  /** Pending files the client gives up on: they end `cancelled` and the job goes on without them. */
  cancelledUploads?: { documentId: string; uploadToken: string }[];
}

/** One upload the client listed, whatever its list: the same checks, then its own outcome. */
interface CompletionEntry {
  documentId: string;
  uploadToken: string;
  mode: 'direct_put' | 'multipart' | 'cancel';
  multipartUploadId: string | null;
  parts: { partNumber: number; etag: string }[];
}

/**
 * Complete uploads.
 * Input: the direct and multipart uploads the client finished, and those it cancels.
 * Output: the job, per listed document its upload outcome, and the files the job still waits for.
 * Steps: check each token (unexpired, of this job and document, listed once, in its upload mode); record
 * each pending file's outcome (cancelled, or its upload checked: multipart sessions completed, the object
 * there with its declared size; its SHA-256 is bound by the signed URL for direct PUTs and verified again,
 * streamed, in preflight). A file whose bytes are not in storage yet stays pending, with an
 * `upload_missing` hint: PUT it and complete again. A file whose upload is wrong gets `error` and the
 * others go on. Once no file is pending the job moves to `preflighting` and processing starts.
 * Completing again changes nothing.
 */
export async function completeUploads(
  deps: { jobs: JobStore; storage: UploadStorage; tokens: TokenSigner; processing: ProcessingStarter },
  input: { orgId: string; jobId: string; uploads: CompleteUploadsCommand; now?: Date },
): Promise<{
  job: Job;
  files: { documentId: string; status: string; uploadStatus: string; error: JobFileRecord['error'] }[];
  waitingFor: WaitingUpload[];
}> {
  const job = await requireJob(deps.jobs, input.orgId, input.jobId);
  const files = await deps.jobs.allFiles(job);
  const byDocument = new Map(files.map((file) => [file.documentId, file]));
  const entries = completionEntries(input.uploads);
  checkEntries(deps.tokens, job.id, byDocument, entries, input.now ?? new Date());
  for (const entry of entries) {
    const file = byDocument.get(entry.documentId) as JobFileRecord;
    if (file.uploadStatus !== 'pending') continue;
    const changes = await outcomeOf(deps.storage, file, entry);
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
    // Every file the job still waits for, listed in this call or not: why it stays `uploading`.
    waitingFor: files
      .filter((file) => file.uploadStatus === 'pending')
      .map((file) => ({
        documentId: file.documentId,
        fileName: file.fileName,
        reason: file.error?.code === UPLOAD_MISSING ? 'upload_missing' : 'not_completed',
      })),
  };
}

function completionEntries(uploads: CompleteUploadsCommand): CompletionEntry[] {
  return [
    ...uploads.directUploads.map((entry) => ({
      ...entry,
      mode: 'direct_put' as const,
      multipartUploadId: null,
      parts: [],
    })),
    ...uploads.multipartUploads.map((entry) => ({ ...entry, mode: 'multipart' as const })),
    ...(uploads.cancelledUploads ?? []).map((entry) => ({
      ...entry,
      mode: 'cancel' as const,
      multipartUploadId: null,
      parts: [],
    })),
  ];
}

/** Refuses the whole completion, before anything is written, for an entry it cannot trust. */
function checkEntries(
  tokens: TokenSigner,
  jobId: string,
  byDocument: Map<string, JobFileRecord>,
  entries: CompletionEntry[],
  now: Date,
): void {
  const seen = new Set<string>();
  for (const entry of entries) {
    const file = byDocument.get(entry.documentId);
    const token = tokens.verify(entry.uploadToken);
    if (!file || !token || token.j !== jobId || token.f !== file.id) {
      throw new InvalidRequestError(
        'invalid_upload_token',
        `Unknown document ${entry.documentId} or an upload token that does not belong to it.`,
      );
    }
    if (!token.e || Date.parse(token.e) < now.getTime()) {
      throw new InvalidRequestError(
        'upload_token_expired',
        `The upload token of document ${entry.documentId} expired at ${token.e ?? 'an unknown time'}. Register the files again (same name, size and SHA-256) for fresh upload URLs and tokens, upload what is still missing, then complete with the new tokens.`,
      );
    }
    if (entry.mode !== 'cancel' && (file.uploadMode !== entry.mode || token.m !== entry.mode)) {
      throw new InvalidRequestError(
        'upload_mode_mismatch',
        `Document ${entry.documentId} was registered for ${file.uploadMode}; list it under ${file.uploadMode === 'multipart' ? 'multipartUploads' : 'directUploads'}.`,
      );
    }
    if (seen.has(file.id))
      throw new InvalidRequestError('invalid_request', `Document ${entry.documentId} is listed twice.`);
    seen.add(file.id);
  }
}

/** What a pending file's entry changes on it: cancelled, uploaded, still pending, or failed. */
async function outcomeOf(
  storage: UploadStorage,
  file: JobFileRecord,
  entry: CompletionEntry,
): Promise<Partial<JobFileRecord>> {
  if (entry.mode === 'cancel') {
    return {
      uploadStatus: 'failed',
      status: 'cancelled',
      error: {
        code: 'upload_cancelled',
        message: 'The client cancelled this upload; the job goes on without it.',
      },
    };
  }
  const failure = await checkUpload(storage, file, { ...entry, mode: entry.mode });
  if (failure === null) return { uploadStatus: 'uploaded', error: null };
  // Still pending: a PUT that arrives later completes it.
  if (failure.code === UPLOAD_MISSING) return { error: failure };
  return { uploadStatus: 'failed', status: 'error', error: failure };
}

/** A file the job waits for: its bytes are not in storage yet, or no completion has listed it. */
export interface WaitingUpload {
  documentId: string;
  fileName: string;
  reason: 'upload_missing' | 'not_completed';
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
      code: UPLOAD_MISSING,
      message:
        'Storage holds no bytes for this file yet; it stays pending, and the job starts processing once no file is pending. PUT it to its signed URL with every uploadHeaders header (register it again for fresh URLs if they expired) and complete again, or list it under cancelledUploads to process the job without it.',
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
