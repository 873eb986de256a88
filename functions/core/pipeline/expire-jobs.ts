import { OPEN_JOB_STATUSES } from '../jobs/statuses.ts';
import { PIPELINE_ERRORS } from './errors.ts';
import type { JobDeps } from './ports.ts';
import { publishOutcome } from './publish-outcome.ts';

/**
 * Expire jobs whose upload window ended while they still waited for uploads.
 * Input: the time to compare with, and how many jobs one run ends at most.
 * Output: the ids of the jobs it ended.
 * Steps: find jobs still accepting uploads whose `expiresAt` has passed (a sparse index that holds
 * only such jobs); move each to `failed` (`job_expired`) only while it still accepts uploads, so a
 * completion at the same moment wins; then cancel its unfinished files and publish `job.failed`.
 * Nothing was reserved or charged before preflight, so there are no credits to release; the uploads
 * bucket's lifecycle rule aborts unfinished multipart uploads a day after the window. Safe to run
 * again and concurrently: a job already ended is not in the index any more.
 */
export async function expireJobs(
  deps: JobDeps,
  input: { now: Date; limit: number },
): Promise<{ expired: string[] }> {
  const expired: string[] = [];
  const at = input.now.toISOString();
  for (const job of await deps.jobs.expiredOpenJobs(at, input.limit)) {
    const error = PIPELINE_ERRORS.jobExpired(job.expiresAt);
    const changes = {
      error,
      completedAt: at,
      progress: { ...job.progress, phase: 'failed', message: error.message, updatedAt: at },
    };
    if (!(await deps.jobs.transition(job.orgId, job.id, [...OPEN_JOB_STATUSES], 'failed', changes))) continue;
    for (const file of await deps.jobs.allFiles(job))
      if (file.status === 'processing') await deps.jobs.updateFile(file, { status: 'cancelled', error });
    await publishOutcome(deps, { ...job, ...changes, status: 'failed' }).catch((publishError: Error) => {
      deps.log.error('Job outcome not published', { jobId: job.id, error: publishError.message });
    });
    expired.push(job.id);
  }
  return { expired };
}
