import type { Page } from '../pagination/page.ts';
import type { FileStatus, JobFileRecord, JobRecord, JobStatus, OwnedJob, OwnedJobRef } from './model.ts';

export interface JobListFilter {
  projectId?: string;
  status?: JobStatus;
  activeOnly?: boolean;
}

export interface JobStore {
  create(job: JobRecord): Promise<void>;
  /**
   * Creates a job whose files are known at once (a repair job): the files first, then the job row,
   * so a job never exists without its files (files of a job never created are never read).
   */
  createWithFiles(job: JobRecord, files: JobFileRecord[]): Promise<void>;
  /** The job, read under the organization's own key (null for another organization's id). */
  get(orgId: string, jobId: string): Promise<OwnedJob | null>;
  list(
    orgId: string,
    filter: JobListFilter,
    options: { limit: number; position: unknown | null },
  ): Promise<Page<OwnedJob>>;
  files(
    job: OwnedJobRef,
    options: { limit: number; position: unknown | null; status?: FileStatus },
  ): Promise<Page<JobFileRecord>>;
  countFiles(job: OwnedJobRef, status?: FileStatus): Promise<number>;
  allFiles(job: OwnedJobRef): Promise<JobFileRecord[]>;
  getFile(job: OwnedJobRef, fileId: string): Promise<JobFileRecord | null>;
  /**
   * Adds new files to a job and its declared-bytes and file counters, in transactions conditional
   * on the limits and on the job accepting uploads; refreshes nothing that exists already.
   * Returns `limit_exceeded` or `not_accepting` instead of writing when a condition fails.
   */
  addFiles(
    job: JobRecord,
    files: JobFileRecord[],
    limits: { maxDeclaredBytes: number; maxFiles: number },
  ): Promise<'added' | 'limit_exceeded' | 'not_accepting'>;
  /** Jobs still accepting uploads whose upload window ended before `before` (ISO time), oldest first. */
  expiredOpenJobs(before: string, limit: number): Promise<OwnedJob[]>;
  updateFile(file: JobFileRecord, changes: Partial<JobFileRecord>): Promise<void>;
  /** Moves the job between statuses when it is in one of `from`; false when it was not. */
  transition(
    orgId: string,
    jobId: string,
    from: JobStatus[],
    to: JobStatus,
    changes?: Partial<JobRecord>,
  ): Promise<boolean>;
  update(orgId: string, jobId: string, changes: Partial<JobRecord>): Promise<void>;
  /** Atomically adds processed pages to the job's progress (percent included). */
  addProgress(orgId: string, jobId: string, pages: number): Promise<void>;
}

export interface DocumentLookup {
  /** A ready document of the project with exactly these bytes, if any. */
  readyDocumentWithDigest(projectId: string, sha256: string): Promise<string | null>;
}

export interface ObjectInfo {
  size: number;
}

export interface UploadStorage {
  /**
   * How long a URL signed now can stay valid, in seconds: storage refuses a signed URL once the
   * credentials that signed it expire (a Lambda role's are temporary). Null: no such limit.
   */
  signingLifetimeSeconds(): Promise<number | null>;
  presignPut(input: {
    key: string;
    contentType: string;
    sha256Base64: string;
    expiresInSeconds: number;
  }): Promise<{
    url: string;
    headers: Record<string, string>;
  }>;
  createMultipart(input: { key: string; contentType: string }): Promise<string>;
  /** Discards a multipart session and its parts (a refused registration leaves none behind). */
  abortMultipart(input: { key: string; uploadId: string }): Promise<void>;
  presignPart(input: {
    key: string;
    uploadId: string;
    partNumber: number;
    contentLength: number;
    expiresInSeconds: number;
  }): Promise<{ url: string; headers: Record<string, string> }>;
  completeMultipart(input: {
    key: string;
    uploadId: string;
    parts: { partNumber: number; etag: string }[];
  }): Promise<void>;
  head(key: string): Promise<ObjectInfo | null>;
}

export interface ProcessingStarter {
  start(orgId: string, jobId: string): Promise<void>;
}
