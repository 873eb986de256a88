import { contentIds } from '../content/model.ts';
import { objectKeys } from '../storage-keys.ts';
import { PIPELINE_ERRORS } from './errors.ts';
import { requireJobFile, requireJobRecord, type StoredBatch } from './model.ts';
import type { PipelineDeps } from './ports.ts';
import { renderAndStoreCrops } from './region-crops.ts';

/**
 * Extract one batch of pages.
 * Input: orgId, jobId, fileId and the page range `from`..`to`.
 * Output: how many pages the batch holds, and whether it failed.
 * Steps: return the stored batch when a previous attempt finished it; otherwise extract the pages,
 * render and store their region crops (here, in the parallel batch tasks, rather than in the single
 * assembly task), store the batch for assembly, and count its pages into the job's progress. An
 * engine failure is stored as the batch's error: the file's other batches still run.
 */
export async function extractPageBatch(
  deps: PipelineDeps,
  input: { orgId: string; jobId: string; fileId: string; from: number; to: number },
): Promise<{ pages: number; failed: boolean }> {
  const key = objectKeys.pageBatch(input.jobId, input.fileId, input.from);
  const done = await deps.artifacts.getJson<StoredBatch>(key);
  if (done) return { pages: done.pages.length, failed: done.error !== null };
  const job = await requireJobRecord(deps.jobs, input.orgId, input.jobId);
  const file = await requireJobFile(deps.jobs, job, input.fileId);
  const bytes = await deps.uploads.getBytes(file.objectKey);
  let stored: StoredBatch;
  try {
    const batch = await deps.extractor.extractPages(bytes, {
      pages: { from: input.from, to: input.to },
      fileName: file.fileName,
      ...(file.classificationDeclared ? { classification: file.classification } : {}),
    });
    const owner = { orgId: file.orgId, projectId: file.projectId, fileId: file.id };
    const wanted = batch.pages.flatMap((page) =>
      (page.sheet?.regions ?? []).map((region, index) => ({
        pageNumber: page.pageNumber,
        box: region.displayBox,
        key: objectKeys.regionCrop(owner, contentIds.region(file.id, page.pageNumber, index)),
      })),
    );
    const crops = await renderAndStoreCrops(deps, bytes, wanted);
    stored = { from: input.from, to: input.to, pages: batch.pages, error: null, crops };
  } catch (error) {
    deps.log.error('Page batch failed', { from: input.from, to: input.to, error: (error as Error).message });
    stored = {
      from: input.from,
      to: input.to,
      pages: [],
      error: PIPELINE_ERRORS.batchFailed((error as { code?: string }).code, (error as Error).message),
    };
  }
  await deps.artifacts.putJson(key, stored);
  await deps.jobs.addProgress(input.orgId, input.jobId, input.to - input.from + 1);
  return { pages: stored.pages.length, failed: stored.error !== null };
}
