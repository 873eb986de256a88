import { PIPELINE_ERRORS } from './errors.ts';
import { failJob } from './fail-job.ts';
import { awaitsInspection } from './inspect-file.ts';
import { batchesFor, inStartOrder, now, type Plan, requireJobRecord } from './model.ts';
import type { JobDeps, PipelineSettings } from './ports.ts';

/**
 * Preflight a job, once its files were inspected one by one (`inspectJobFile`).
 * Input: orgId, jobId (a job in `preflighting`, or `processing` when a retried task runs again).
 * Output: the plan (each processable file with its page batches), or `proceed: false`.
 * Steps: fail a file left uninspected; reserve credits for every processable page (not enough fails
 * the job before any work); move the job to `processing`. A retry reserves once.
 */
export async function preflightJob(
  deps: JobDeps,
  settings: PipelineSettings,
  input: { orgId: string; jobId: string },
): Promise<Plan> {
  const job = await requireJobRecord(deps.jobs, input.orgId, input.jobId);
  const files = await deps.jobs.allFiles(job);
  if (job.status === 'preflighting') {
    // Every file was inspected in its own task (inspect-file.ts); one that was not fails alone.
    for (const file of files.filter(awaitsInspection)) {
      const changes = { status: 'error' as const, error: PIPELINE_ERRORS.notInspected() };
      await deps.jobs.updateFile(file, changes);
      Object.assign(file, changes);
    }
  }
  const processable = files.filter(
    (file) => file.status === 'processing' && file.uploadStatus === 'uploaded' && file.pageCount > 0,
  );
  const totalPages = processable.reduce((sum, file) => sum + file.pageCount, 0);
  const stop: Plan = { orgId: job.orgId, jobId: job.id, proceed: false, files: [] };

  if (job.status === 'preflighting') {
    const credits = totalPages * settings.creditsPerPage;
    if (credits > 0) {
      const reserved = await deps.credits.reserve(job.orgId, job.id, credits);
      if (!reserved.ok) {
        const error = PIPELINE_ERRORS.insufficientCredits(totalPages, credits, reserved.available);
        await failJob(deps, { orgId: job.orgId, jobId: job.id, error, cancelFiles: true });
        return stop;
      }
    }
    await deps.jobs.transition(job.orgId, job.id, ['preflighting'], 'processing', {
      pageCount: totalPages,
      creditsReserved: credits,
      progress: {
        processedPages: 0,
        totalPages,
        percent: 0,
        phase: 'processing',
        message: `Processing ${totalPages} pages.`,
        updatedAt: now(),
      },
    });
  } else if (job.status !== 'processing') {
    return stop;
  }
  return {
    orgId: job.orgId,
    jobId: job.id,
    proceed: true,
    files: processable.map((file) => ({
      fileId: file.id,
      pageCount: file.pageCount,
      batches: inStartOrder(
        batchesFor(file.pageCount, file.pagesPerBatch ?? settings.pagesPerBatch),
        file.pagesWithoutText,
      ),
    })),
  };
}
