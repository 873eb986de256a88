import type { PsaClient } from './client.ts';
import { PsaUploadError } from './errors.ts';
import { backoffMs, DEFAULT_RETRY, sleep } from './retry.ts';
import type { CompleteUploadsResponse, Job, RegisteredDocument, UploadInstruction } from './types.ts';

/** A file to upload, whatever holds its bytes (a path on disk, a browser File). */
export interface UploadSource {
  fileName: string;
  contentType: string;
  size: number;
  /** SHA-256 of the exact bytes, 64 lowercase hex characters. */
  sha256: string;
  classification?: 'plans' | 'specifications' | 'documents' | 'addenda' | 'mixed' | 'other';
  /** Bytes [start, end). */
  read(start: number, end: number): Promise<Uint8Array>;
}

export type UploadFileStatus = 'registered' | 'uploading' | 'uploaded' | 'skipped' | 'completed' | 'failed';

export interface UploadProgressEvent {
  fileName: string;
  documentId: string;
  status: UploadFileStatus;
  bytesSent: number;
  bytesTotal: number;
  /** Set on `failed`. */
  error?: string;
}

/**
 * What survives an interruption: per document, the multipart session and the ETag of every part
 * storage acknowledged, and whether a direct PUT finished. Persist it (the CLI writes it beside its
 * config) and pass it back to resume without sending those bytes again.
 */
export interface UploadState {
  jobId: string;
  documents: Record<
    string,
    { multipartUploadId: string | null; parts: Record<string, string>; uploaded: boolean }
  >;
}

export interface UploadOptions {
  /** PUTs in flight at once, across files and parts (default 4). */
  concurrency?: number;
  /** Attempts per PUT before the file fails (default 4). */
  attempts?: number;
  onProgress?: (event: UploadProgressEvent) => void;
  /** Resume from a state saved by an earlier, interrupted call for the same job. */
  state?: UploadState;
  /** Called whenever the state changes (a part acknowledged, a file uploaded). */
  onState?: (state: UploadState) => void;
  signal?: AbortSignal;
  fetch?: typeof fetch;
}

export interface UploadResult {
  job: Job;
  /** The completion's verdict per file (`status`, `uploadStatus`, `error`). */
  files: CompleteUploadsResponse['files'];
  /** Files whose bytes the project already holds (deduplicated) or that an earlier call completed. */
  skipped: string[];
}

const BATCH = 100;

/** Runs tasks with at most `limit` at once; the first failure is thrown after the running ones settle. */
async function runBounded(tasks: (() => Promise<void>)[], limit: number): Promise<void> {
  let next = 0;
  const errors: unknown[] = [];
  const worker = async () => {
    while (next < tasks.length && errors.length === 0) {
      const task = tasks[next++];
      if (!task) break;
      try {
        await task();
      } catch (error) {
        errors.push(error);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, tasks.length) }, worker));
  if (errors.length) throw errors[0];
}

interface Planned {
  source: UploadSource;
  document: RegisteredDocument;
  instruction: UploadInstruction;
}

/** The multipart session of a planned file (its parts were sent only after this was checked). */
const multipartUploadIdOf = ({ source, instruction }: Planned): string => {
  if (!instruction.multipartUploadId)
    throw new PsaUploadError(source.fileName, 'no multipart upload was issued');
  return instruction.multipartUploadId;
};

/**
 * Uploads files to a job: registers them (100 a request; registering again after an interruption
 * returns fresh URLs for the same documents and multipart sessions), PUTs direct files and multipart
 * parts with bounded concurrency, retrying a failed PUT with backoff, then completes them.
 */
export async function uploadSources(
  client: PsaClient,
  jobId: string,
  sources: UploadSource[],
  options: UploadOptions = {},
): Promise<UploadResult> {
  const put = options.fetch ?? globalThis.fetch.bind(globalThis);
  const attempts = options.attempts ?? 4;
  const state: UploadState =
    options.state && options.state.jobId === jobId ? options.state : { jobId, documents: {} };
  const saveState = () => options.onState?.(state);
  const planned: Planned[] = [];
  const skipped: string[] = [];

  for (let start = 0; start < sources.length; start += BATCH) {
    const batch = sources.slice(start, start + BATCH);
    const registered = await client.jobs.registerUploads(jobId, {
      files: batch.map((source) => ({
        fileName: source.fileName,
        contentType: source.contentType,
        fileSize: source.size,
        sha256: source.sha256,
        ...(source.classification ? { classification: source.classification } : {}),
      })),
    });
    batch.forEach((source, index) => {
      const document =
        registered.documents.find((d) => d.fileName === source.fileName && d.sha256 === source.sha256) ??
        registered.documents[index];
      const instruction = registered.uploads.find((u) => u.documentId === document?.documentId);
      if (!document || !instruction)
        throw new PsaUploadError(source.fileName, 'the registration did not list it');
      planned.push({ source, document, instruction });
    });
  }

  const sent = new Map<string, number>();
  const report = (item: Planned, status: UploadFileStatus, error?: string) =>
    options.onProgress?.({
      fileName: item.source.fileName,
      documentId: item.document.documentId,
      status,
      bytesSent: sent.get(item.document.documentId) ?? 0,
      bytesTotal: item.source.size,
      ...(error ? { error } : {}),
    });

  /** One PUT with retries; returns the ETag storage answered. */
  const putBytes = async (
    item: Planned,
    url: string,
    headers: Record<string, string>,
    start: number,
    end: number,
  ): Promise<string> => {
    const body = await item.source.read(start, end);
    for (let attempt = 1; ; attempt += 1) {
      let problem: string;
      try {
        const response = await put(url, { method: 'PUT', headers, body, signal: options.signal ?? null });
        await response.body?.cancel();
        if (response.ok) return response.headers.get('etag') ?? '';
        problem = `storage answered ${response.status}`;
        // 4xx other than 408/429 will not get better by sending the same bytes again.
        if (response.status < 500 && response.status !== 408 && response.status !== 429) attempt = attempts;
      } catch (error) {
        if (options.signal?.aborted) throw error;
        problem = (error as Error).message;
      }
      if (attempt >= attempts) throw new PsaUploadError(item.source.fileName, `upload failed: ${problem}`);
      await sleep(backoffMs(attempt - 1, DEFAULT_RETRY), options.signal);
    }
  };

  const tasks: (() => Promise<void>)[] = [];
  const toComplete: Planned[] = [];
  for (const item of planned) {
    const { document, instruction, source } = item;
    const saved = state.documents[document.documentId];
    const alreadyUploaded = !document.uploadRequired && document.duplicateOfDocumentId === null;
    if (alreadyUploaded) {
      // An earlier call registered, uploaded and completed it: nothing left to do.
      skipped.push(source.fileName);
      sent.set(document.documentId, source.size);
      report(item, 'skipped');
      continue;
    }
    toComplete.push(item);
    if (instruction.uploadMode === 'direct_put' && (document.duplicateOfDocumentId || saved?.uploaded)) {
      // Deduplicated (the project holds these bytes) or sent before the interruption.
      if (document.duplicateOfDocumentId) skipped.push(source.fileName);
      sent.set(document.documentId, source.size);
      report(item, document.duplicateOfDocumentId ? 'skipped' : 'uploaded');
      continue;
    }
    const entry =
      saved && saved.multipartUploadId === (instruction.multipartUploadId ?? null)
        ? saved
        : { multipartUploadId: instruction.multipartUploadId ?? null, parts: {}, uploaded: false };
    state.documents[document.documentId] = entry;
    report(item, 'registered');
    if (instruction.uploadMode === 'direct_put') {
      if (!instruction.uploadUrl) throw new PsaUploadError(source.fileName, 'no upload URL was issued');
      const url = instruction.uploadUrl;
      tasks.push(async () => {
        report(item, 'uploading');
        await putBytes(item, url, instruction.uploadHeaders ?? {}, 0, source.size);
        sent.set(document.documentId, source.size);
        entry.uploaded = true;
        saveState();
        report(item, 'uploaded');
      });
      continue;
    }
    const parts = instruction.parts ?? [];
    if (!parts.length || !instruction.multipartUploadId) {
      throw new PsaUploadError(source.fileName, 'the multipart instruction lists no parts');
    }
    let remaining = parts.length;
    for (const part of parts) {
      if (entry.parts[part.partNumber]) {
        sent.set(
          document.documentId,
          (sent.get(document.documentId) ?? 0) + part.endByteExclusive - part.startByte,
        );
        remaining -= 1;
        continue;
      }
      tasks.push(async () => {
        report(item, 'uploading');
        const etag = await putBytes(
          item,
          part.uploadUrl,
          part.uploadHeaders,
          part.startByte,
          part.endByteExclusive,
        );
        if (!etag)
          throw new PsaUploadError(source.fileName, `storage returned no ETag for part ${part.partNumber}`);
        entry.parts[part.partNumber] = etag;
        sent.set(
          document.documentId,
          (sent.get(document.documentId) ?? 0) + part.endByteExclusive - part.startByte,
        );
        saveState();
        remaining -= 1;
        if (remaining === 0) {
          entry.uploaded = true;
          report(item, 'uploaded');
        } else {
          report(item, 'uploading');
        }
      });
    }
    if (remaining === 0) report(item, 'uploaded');
  }
  saveState();
  await runBounded(tasks, Math.max(1, options.concurrency ?? 4));

  let job: Job | null = null;
  const files: CompleteUploadsResponse['files'] = [];
  for (let start = 0; start < toComplete.length; start += BATCH) {
    const batch = toComplete.slice(start, start + BATCH);
    const completed = await client.jobs.completeUploads(jobId, {
      directUploads: batch
        .filter((item) => item.instruction.uploadMode === 'direct_put')
        .map((item) => ({ documentId: item.document.documentId, uploadToken: item.instruction.uploadToken })),
      multipartUploads: batch
        .filter((item) => item.instruction.uploadMode === 'multipart')
        .map((item) => ({
          documentId: item.document.documentId,
          multipartUploadId: multipartUploadIdOf(item),
          uploadToken: item.instruction.uploadToken,
          parts: Object.entries(state.documents[item.document.documentId]?.parts ?? {})
            .map(([partNumber, etag]) => ({ partNumber: Number(partNumber), etag }))
            .sort((a, b) => a.partNumber - b.partNumber),
        })),
    });
    job = completed.job;
    files.push(...completed.files);
    for (const verdict of completed.files) {
      const item = batch.find((candidate) => candidate.document.documentId === verdict.documentId);
      if (!item) continue;
      const failed = verdict.status === 'error' || verdict.error !== null;
      report(item, failed ? 'failed' : 'completed', verdict.error?.message);
    }
  }
  return { job: job ?? (await client.jobs.get(jobId)), files, skipped };
}
