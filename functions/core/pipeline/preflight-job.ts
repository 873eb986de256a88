import { createHash } from 'node:crypto';
import type { ErrorInfo } from '../errors.ts';
import type { JobFileRecord } from '../jobs/model.ts';
import { PIPELINE_ERRORS } from './errors.ts';
import { failJob } from './fail-job.ts';
import { batchesFor, batchSizeFor, now, type Plan, requireJobRecord } from './model.ts';
import type { PipelineDeps, PipelineSettings } from './ports.ts';

/**
 * Preflight a job.
 * Input: orgId, jobId (a job in `preflighting`, or `processing` when a retried task runs again).
 * Output: the plan (each processable file with its page batches), or `proceed: false`.
 * Steps: verify each uploaded file not yet inspected (digest, PDF, page count) and record its batch
 * size or its error; reserve credits for every processable page (not enough fails the job before
 * any work); move the job to `processing`. A retry skips files already inspected and reserves once.
 */
export async function preflightJob(
  deps: PipelineDeps,
  settings: PipelineSettings,
  input: { orgId: string; jobId: string },
): Promise<Plan> {
  const job = await requireJobRecord(deps.jobs, input.orgId, input.jobId);
  const files = await deps.jobs.allFiles(job);
  if (job.status === 'preflighting') {
    for (const file of files) {
      if (file.uploadStatus !== 'uploaded' || file.status !== 'processing' || file.pageCount > 0) continue;
      const changes = await inspectFile(deps, settings, file);
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
      batches: batchesFor(file.pageCount, file.pagesPerBatch ?? settings.pagesPerBatch),
    })),
  };
}

/** The changes preflight records on one file: its page count and batch size, or its error. */
async function inspectFile(
  deps: PipelineDeps,
  settings: PipelineSettings,
  file: JobFileRecord,
): Promise<Partial<JobFileRecord>> {
  // Same bytes as a ready document of the project: nothing to extract again.
  if (file.duplicateOfDocumentId) return { status: 'ready' };
  const bytes = await deps.uploads.getBytes(file.objectKey);
  const digest = createHash('sha256').update(bytes).digest('hex');
  const failed = (error: ErrorInfo): Partial<JobFileRecord> => ({ status: 'error', error });
  if (digest !== file.sha256) return failed(PIPELINE_ERRORS.checksumMismatch());
  const inspection = await deps.extractor.inspect(bytes);
  switch (inspection.kind) {
    case 'not_pdf':
      return failed(PIPELINE_ERRORS.notPdf());
    case 'encrypted':
      return failed(PIPELINE_ERRORS.encrypted());
    case 'malformed':
      return failed(PIPELINE_ERRORS.malformed(inspection.detail));
    case 'pdf':
      if (inspection.pageCount === 0) return failed(PIPELINE_ERRORS.empty());
      if (inspection.pageCount > settings.maxPagesPerFile)
        return failed(PIPELINE_ERRORS.tooManyPages(inspection.pageCount, settings.maxPagesPerFile));
      return {
        pageCount: inspection.pageCount,
        pagesPerBatch: batchSizeFor(inspection.pageCount, inspection.largePages, settings.pagesPerBatch),
      };
  }
}
