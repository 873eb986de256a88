import type { ErrorInfo } from '../errors.ts';
import type { JobFileRecord } from '../jobs/model.ts';
import { PIPELINE_ERRORS } from './errors.ts';
import { batchSizeFor, MAX_PAGES_WITHOUT_TEXT_KEPT, requireJobFile, requireJobRecord } from './model.ts';
import type { JobDeps, PipelineDeps, PipelineSettings } from './ports.ts';

/** An uploaded file still waiting for its inspection (no page count, no error yet). */
export function awaitsInspection(file: JobFileRecord): boolean {
  return file.uploadStatus === 'uploaded' && file.status === 'processing' && file.pageCount === 0;
}

/**
 * The files a job's preflight inspects, each in its own task.
 * Input: orgId, jobId. Output: their ids (none once the job left `preflighting`: a retried
 * execution inspects nothing twice).
 */
export async function listFilesToInspect(
  deps: JobDeps,
  input: { orgId: string; jobId: string },
): Promise<{ fileIds: string[] }> {
  const job = await requireJobRecord(deps.jobs, input.orgId, input.jobId);
  if (job.status !== 'preflighting') return { fileIds: [] };
  return { fileIds: (await deps.jobs.allFiles(job)).filter(awaitsInspection).map((file) => file.id) };
}

/**
 * Inspect one uploaded file.
 * Input: orgId, jobId, fileId. Output: the file's status after inspection.
 * Steps: a file already inspected (a retried task) is left as it is; otherwise read its bytes as
 * they stream in, checking their size and SHA-256 against the registration, open it as a PDF,
 * count its pages, and record its page count and batch size, or its error. One file's failure is
 * its own: the job's other files are inspected by their own tasks.
 */
export async function inspectJobFile(
  deps: PipelineDeps,
  settings: PipelineSettings,
  input: { orgId: string; jobId: string; fileId: string },
): Promise<{ status: JobFileRecord['status'] }> {
  const job = await requireJobRecord(deps.jobs, input.orgId, input.jobId);
  const file = await requireJobFile(deps.jobs, job, input.fileId);
  if (job.status !== 'preflighting' || !awaitsInspection(file)) return { status: file.status };
  const changes = await inspectFile(deps, settings, file);
  await deps.jobs.updateFile(file, changes);
  return { status: changes.status ?? file.status };
}

/** The changes inspection records on one file: its page count and batch size, or its error. */
async function inspectFile(
  deps: PipelineDeps,
  settings: PipelineSettings,
  file: JobFileRecord,
): Promise<Partial<JobFileRecord>> {
  // Same bytes as a ready document of the project: nothing to extract again.
  if (file.duplicateOfDocumentId) return { status: 'ready' };
  const failed = (error: ErrorInfo): Partial<JobFileRecord> => ({ status: 'error', error });
  const read = await deps.uploads.getVerifiedBytes(file.objectKey, { size: file.fileSize });
  if (!read.ok) return failed(PIPELINE_ERRORS.sizeMismatch());
  if (read.sha256 !== file.sha256) return failed(PIPELINE_ERRORS.checksumMismatch());
  const inspection = await deps.extractor.inspect(read.bytes);
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
        pagesWithoutText: inspection.pagesWithoutText.slice(0, MAX_PAGES_WITHOUT_TEXT_KEPT),
      };
  }
}
