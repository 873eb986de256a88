import type { ErrorInfo } from '../errors.ts';
import type { JobRecord } from '../jobs/model.ts';
import { PIPELINE_ERRORS } from './errors.ts';
import { now, requireJobRecord } from './model.ts';
import type { JobDeps } from './ports.ts';
import { publishOutcome } from './publish-outcome.ts';

/**
 * Fail a job.
 * Input: orgId, jobId, optionally the error to record and whether unfinished files are cancelled.
 * Output: `{ status: 'failed' }`.
 * Steps: release the whole credit reservation; end every unfinished file (error or cancelled);
 * publish the outcome (best effort: a job must end even when notifications cannot be sent); move
 * the job to `failed`. A job already ended is left as it is.
 */
export async function failJob(
  deps: JobDeps,
  input: { orgId: string; jobId: string; error?: ErrorInfo; cancelFiles?: boolean },
): Promise<{ status: 'failed' }> {
  const job = await requireJobRecord(deps.jobs, input.orgId, input.jobId);
  if (job.status === 'completed' || job.status === 'failed') return { status: 'failed' };
  if (job.creditsReserved > 0) await deps.credits.settle(job.orgId, job.id, job.creditsReserved, 0);
  const error = input.error ?? PIPELINE_ERRORS.processingFailed();
  for (const file of await deps.jobs.allFiles(job)) {
    if (file.status === 'processing') {
      await deps.jobs.updateFile(file, { status: input.cancelFiles ? 'cancelled' : 'error', error });
    }
  }
  const completedAt = now();
  const changes: Partial<JobRecord> = {
    error,
    completedAt,
    creditsReserved: 0,
    progress: { ...job.progress, phase: 'failed', message: error.message, updatedAt: completedAt },
  };
  await publishOutcome(deps, { ...job, ...changes, status: 'failed' }).catch((publishError: Error) => {
    deps.log.error('Job outcome not published', { jobId: job.id, error: publishError.message });
  });
  await deps.jobs.transition(
    job.orgId,
    job.id,
    ['awaiting_uploads', 'uploading', 'preflighting', 'processing'],
    'failed',
    changes,
  );
  return { status: 'failed' };
}

/**
 * Fail one file.
 * Input: orgId, jobId, fileId (its Map branch failed after its retries).
 * Output: the file's status.
 * Steps: a file still processing ends in error; the job's other files go on.
 */
export async function failFile(deps: JobDeps, input: { orgId: string; jobId: string; fileId: string }) {
  const job = await requireJobRecord(deps.jobs, input.orgId, input.jobId);
  const file = await deps.jobs.getFile(job, input.fileId);
  if (file?.status !== 'processing') return { status: file?.status ?? 'missing' };
  await deps.jobs.updateFile(file, { status: 'error', error: PIPELINE_ERRORS.fileBranchFailed() });
  return { status: 'error' };
}
