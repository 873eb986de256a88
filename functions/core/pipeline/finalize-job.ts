import type { StoredJobResult } from '../content/job-result.ts';
import { type JobRecord, jobKind } from '../jobs/model.ts';
import { objectKeys } from '../storage-keys.ts';
import { PIPELINE_ERRORS } from './errors.ts';
import { now, requireJobRecord } from './model.ts';
import type { JobDeps, PipelineSettings } from './ports.ts';
import { publishOutcome } from './publish-outcome.ts';

/**
 * Finalize a job.
 * Input: orgId, jobId (a job in `processing` whose files have all been assembled or failed).
 * Output: the job's final status.
 * Steps: end any file still processing (its branch never assembled); debit the successful pages
 * and release the rest of the reservation (once per job; repair jobs are free); store the immutable result once; publish
 * the outcome, then move the job to `completed` (any file ready) or `failed`. A retried task
 * publishes again (webhooks are at-least-once with a stable event id) rather than risk a job that
 * ended without its notification.
 */
export async function finalizeJob(
  deps: JobDeps,
  settings: PipelineSettings,
  input: { orgId: string; jobId: string },
) {
  const job = await requireJobRecord(deps.jobs, input.orgId, input.jobId);
  if (job.status !== 'processing') return { status: job.status };
  const files = await deps.jobs.allFiles(job);
  for (const file of files) {
    if (file.status === 'processing') {
      const error = PIPELINE_ERRORS.fileNotProcessed();
      await deps.jobs.updateFile(file, { status: 'error', error });
      Object.assign(file, { status: 'error', error });
    }
  }
  const successful = files.reduce(
    (sum, file) => sum + (file.status === 'ready' ? file.successfulPageCount : 0),
    0,
  );
  // Repair jobs are free: nothing was reserved, nothing is debited.
  const charged = jobKind(job) === 'ingest';
  const debit = charged ? successful * settings.creditsPerPage : 0;
  if (charged) await deps.credits.settle(job.orgId, job.id, job.creditsReserved, debit);

  const completedAt = now();
  // A repair job with no file (a reconcile that only removed orphaned passages) did all it had to.
  const anyReady = files.some((file) => file.status === 'ready') || (files.length === 0 && !charged);
  const status = anyReady ? 'completed' : 'failed';
  const failedPageCount = Math.max(0, job.pageCount - successful);
  const result: StoredJobResult = {
    jobId: job.id,
    projectId: job.projectId,
    status,
    completedAt,
    pageCount: job.pageCount,
    successfulPageCount: successful,
    failedPageCount,
    billing: { creditsDebited: debit, creditsReleased: Math.max(0, job.creditsReserved - debit) },
    files: files.map((file) => ({
      fileId: file.id,
      documentId: file.documentId,
      fileName: file.fileName,
      classification: file.classification,
      status: file.status,
      pageCount: file.pageCount,
      successfulPageCount: file.successfulPageCount,
      error: file.error,
    })),
    artifacts: await deps.content.artifactKeysOfJob(
      job.projectId,
      files.filter((file) => file.status === 'ready').map((file) => file.id),
    ),
  };
  await deps.artifacts.putImmutable(
    objectKeys.jobResult(job, job.id),
    new TextEncoder().encode(JSON.stringify(result)),
    'application/json',
  );
  const changes: Partial<JobRecord> = {
    successfulPageCount: successful,
    failedPageCount,
    creditsDebited: debit,
    creditsReserved: 0,
    completedAt,
    error: anyReady ? null : PIPELINE_ERRORS.noFileProcessed(),
    progress: {
      processedPages: job.pageCount,
      totalPages: job.pageCount,
      percent: 100,
      phase: status,
      message: anyReady
        ? `Processed ${successful} of ${job.pageCount} pages.`
        : 'No file could be processed.',
      updatedAt: completedAt,
    },
  };
  await publishOutcome(deps, { ...job, ...changes, status });
  await deps.jobs.transition(job.orgId, job.id, ['processing'], status, changes);
  return { status };
}
