import type { PageResult } from '../../engine/index.ts';
import { contentIds } from '../content/model.ts';
import { objectKeys } from '../storage-keys.ts';
import { PIPELINE_ERRORS } from './errors.ts';
import { requireJobFile, requireJobRecord, type StoredBatch } from './model.ts';
import type { PageSession, PipelineDeps } from './ports.ts';
import { renderAndStoreCrops } from './region-crops.ts';

/** Pages of a batch done by earlier runs of its task, and where the next run starts. */
interface BatchPart {
  next: number;
  pages: PageResult[];
  crops: string[];
}

/** Time kept back from the function's limit to store what was done (and for the pages' variance). */
export const BATCH_TIME_MARGIN_MS = 60_000;

/**
 * Extract one batch of pages, within the function's time.
 * Input: orgId, jobId, fileId and the page range `from`..`to`; how much time the function has left.
 * Output: how many pages the batch holds, whether it failed, and whether it is done (when not, the
 * state machine runs the task again and it resumes where this run stopped).
 * Steps: return the stored batch when a previous attempt finished it; otherwise extract the pages in
 * chunks sized by the time pages took so far, rendering and storing their region crops (here, in the
 * parallel batch tasks, rather than in the single assembly task); when the next chunk would not fit
 * in the time left, store the pages done so far and stop; at the end store the batch for assembly.
 * Pages are counted into the job's progress as they are done. An engine failure is stored as the
 * batch's error with the pages done before it: the file's other batches still run.
 */
export async function extractPageBatch(
  deps: PipelineDeps,
  input: { orgId: string; jobId: string; fileId: string; from: number; to: number },
  remainingMs: () => number = () => Number.POSITIVE_INFINITY,
): Promise<{ pages: number; failed: boolean; done: boolean }> {
  const key = objectKeys.pageBatch(input.jobId, input.fileId, input.from);
  const stored = await deps.artifacts.getJson<StoredBatch>(key);
  if (stored) return { pages: stored.pages.length, failed: stored.error !== null, done: true };
  const job = await requireJobRecord(deps.jobs, input.orgId, input.jobId);
  const file = await requireJobFile(deps.jobs, job, input.fileId);
  const bytes = await deps.uploads.getBytes(file.objectKey);
  const partKey = objectKeys.pageBatchPart(input.jobId, input.fileId, input.from);
  const part = (await deps.artifacts.getJson<BatchPart>(partKey)) ?? {
    next: input.from,
    pages: [],
    crops: [],
  };
  const startedAt = part.next;
  const owner = { orgId: file.orgId, projectId: file.projectId, fileId: file.id };
  // The first chunk is one page: its time sizes the next ones. The file is opened once for all chunks.
  let chunk = 1;
  let error: StoredBatch['error'] = null;
  let session: PageSession | undefined;
  try {
    const opened = await deps.extractor.openPages(bytes, {
      fileName: file.fileName,
      ...(file.classificationDeclared ? { classification: file.classification } : {}),
    });
    session = opened;
    while (part.next <= input.to) {
      const chunkTo = Math.min(input.to, part.next + chunk - 1);
      const started = performance.now();
      const pages = await opened.extract({ from: part.next, to: chunkTo });
      const wanted = pages.flatMap((page) =>
        (page.sheet?.regions ?? []).map((region, index) => ({
          pageNumber: page.pageNumber,
          box: region.displayBox,
          key: objectKeys.regionCrop(owner, contentIds.region(file.id, page.pageNumber, index)),
        })),
      );
      // From the open file: a second document opened beside it slowed its next pages threefold.
      part.crops.push(...(await renderAndStoreCrops(deps, (regions) => opened.regionCrops(regions), wanted)));
      part.pages.push(...pages);
      const perPageMs = (performance.now() - started) / (chunkTo - part.next + 1);
      part.next = chunkTo + 1;
      const budgetMs = remainingMs() - BATCH_TIME_MARGIN_MS;
      if (part.next <= input.to && budgetMs < perPageMs * 2) {
        await deps.artifacts.putJson(partKey, part);
        await deps.jobs.addProgress(input.orgId, input.jobId, part.next - startedAt);
        deps.log.info('Page batch continues in the next run', { from: input.from, next: part.next });
        return { pages: part.pages.length, failed: false, done: false };
      }
      // Half the time left per chunk, so one slow page cannot carry a chunk past the deadline.
      chunk = Math.max(1, Math.min(input.to - part.next + 1, Math.floor(budgetMs / perPageMs / 2)));
    }
  } catch (failure) {
    deps.log.error('Page batch failed', {
      from: input.from,
      to: input.to,
      error: (failure as Error).message,
    });
    error = PIPELINE_ERRORS.batchFailed((failure as { code?: string }).code, (failure as Error).message);
  } finally {
    // A failure to free the document must not lose the pages: they are stored below.
    await session
      ?.close()
      .catch((failure: Error) => deps.log.error('Closing the PDF failed', { error: failure.message }));
  }
  // The pages done before a failure are kept; assembly records the batch's error on the file.
  await deps.artifacts.putJson(key, {
    from: input.from,
    to: input.to,
    pages: part.pages,
    error,
    crops: part.crops,
  } satisfies StoredBatch);
  await deps.jobs.addProgress(input.orgId, input.jobId, input.to - startedAt + 1);
  return { pages: part.pages.length, failed: error !== null, done: true };
}
