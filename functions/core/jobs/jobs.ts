import { ConflictError, NotFoundError } from '../errors.ts';
import { isWellFormedId, newId } from '../ids.ts';
import type { CursorCodec } from '../pagination/cursor.ts';
import type { ProjectStore } from '../projects/ports.ts';
import { requireProject } from '../projects/queries.ts';
import {
  type FileStatus,
  JOB_LIMITS,
  type Job,
  type JobFile,
  newJobRecord,
  type OwnedJob,
  toPublicJob,
  toPublicJobFile,
} from './model.ts';
import type { JobListFilter, JobStore } from './ports.ts';

export class JobNotFoundError extends NotFoundError {
  constructor() {
    super('job_not_found', 'Job not found.');
  }
}

/** Uploads may be registered for a week; signed URLs themselves live much shorter (see registerUploads). */
export const JOB_UPLOAD_WINDOW_MS = 7 * 24 * 3600 * 1000;

export async function requireJob(jobs: JobStore, orgId: string, jobId: string): Promise<OwnedJob> {
  if (!isWellFormedId('job', jobId)) throw new JobNotFoundError();
  const job = await jobs.get(orgId, jobId);
  if (!job) throw new JobNotFoundError();
  return job;
}

/** A job with its first files embedded (up to JOB_LIMITS.embeddedFiles). */
export async function presentJob(jobs: JobStore, record: OwnedJob): Promise<Job> {
  const page = await jobs.files(record, { limit: JOB_LIMITS.embeddedFiles, position: null });
  return toPublicJob(record, page.items, page.nextPosition !== null);
}

/**
 * Create a job.
 * Input: organization, project (must be `ready`), optional display name and external id.
 * Output: the job in `awaiting_uploads`.
 */
export async function createJob(
  deps: { projects: ProjectStore; jobs: JobStore },
  input: { orgId: string; projectId: string; displayName?: string; externalId?: string; now?: Date },
): Promise<Job> {
  const project = await requireProject(deps.projects, input.orgId, input.projectId);
  if (project.status !== 'ready') {
    throw new ConflictError(
      'project_not_ready',
      project.status === 'provisioning'
        ? 'The project is still provisioning; poll it until its status is ready, then create the job.'
        : 'The project failed to provision; jobs cannot be created in it.',
      { projectStatus: project.status },
    );
  }
  const now = input.now ?? new Date();
  const iso = now.toISOString();
  const record = newJobRecord({
    orgId: input.orgId,
    id: newId('job'),
    project,
    displayName: input.displayName ?? `Upload ${iso.slice(0, 16).replace('T', ' ')} UTC`,
    externalId: input.externalId ?? null,
    status: 'awaiting_uploads',
    fileCount: 0,
    pageCount: 0,
    message: 'Register files to upload.',
    now: iso,
    expiresAt: new Date(now.getTime() + JOB_UPLOAD_WINDOW_MS).toISOString(),
  });
  await deps.jobs.create(record);
  return toPublicJob(record, [], false);
}

export async function getJob(
  deps: { jobs: JobStore },
  input: { orgId: string; jobId: string },
): Promise<Job> {
  return presentJob(deps.jobs, await requireJob(deps.jobs, input.orgId, input.jobId));
}

export async function listJobs(
  deps: { jobs: JobStore; cursors: CursorCodec; projects: ProjectStore },
  input: {
    orgId: string;
    endpoint: string;
    filter: JobListFilter;
    limit: number;
    cursor: string | undefined;
  },
): Promise<{ jobs: Job[]; nextCursor: string | null }> {
  if (input.filter.projectId && input.endpoint === 'listProjectJobs') {
    await requireProject(deps.projects, input.orgId, input.filter.projectId);
  }
  const scope = { endpoint: input.endpoint, orgId: input.orgId, filters: { ...input.filter } };
  const position = input.cursor ? deps.cursors.decode(input.cursor, scope) : null;
  const page = await deps.jobs.list(input.orgId, input.filter, { limit: input.limit, position });
  return {
    jobs: await Promise.all(page.items.map((record) => presentJob(deps.jobs, record))),
    nextCursor: page.nextPosition === null ? null : deps.cursors.encode(scope, page.nextPosition),
  };
}

export async function listJobFiles(
  deps: { jobs: JobStore; cursors: CursorCodec },
  input: { orgId: string; jobId: string; status?: FileStatus; limit: number; cursor: string | undefined },
): Promise<{ cursor: string | null; fileCount: number; files: JobFile[]; nextCursor: string | null }> {
  const job = await requireJob(deps.jobs, input.orgId, input.jobId);
  const scope = {
    endpoint: 'listJobFiles',
    orgId: input.orgId,
    filters: { jobId: input.jobId, status: input.status },
  };
  const position = input.cursor ? deps.cursors.decode(input.cursor, scope) : null;
  const [page, fileCount] = await Promise.all([
    deps.jobs.files(job, {
      limit: input.limit,
      position,
      ...(input.status ? { status: input.status } : {}),
    }),
    deps.jobs.countFiles(job, input.status),
  ]);
  const nextCursor = page.nextPosition === null ? null : deps.cursors.encode(scope, page.nextPosition);
  return {
    cursor: input.cursor ?? null,
    fileCount,
    files: page.items.map(toPublicJobFile),
    nextCursor,
  };
}
