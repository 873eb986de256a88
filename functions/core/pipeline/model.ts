import { z } from 'zod';
import type { PageResult } from '../../engine/index.ts';
import type { ErrorInfoSchema } from '../errors.ts';
import type { JobFileRecord, OwnedJob, OwnedJobRef } from '../jobs/model.ts';
import type { JobStore } from '../jobs/ports.ts';

/** What preflight hands to the state machine: the page batches of each processable file. */
export const PlanSchema = z.object({
  orgId: z.string(),
  jobId: z.string(),
  proceed: z.boolean(),
  files: z.array(
    z.object({
      fileId: z.string(),
      pageCount: z.number().int(),
      batches: z.array(z.object({ from: z.number().int(), to: z.number().int() })),
    }),
  ),
});
export type Plan = z.infer<typeof PlanSchema>;

/** One extracted batch of pages, kept in the artifacts bucket (`work/`) until its file is assembled. */
export interface StoredBatch {
  from: number;
  to: number;
  pages: PageResult[];
  error: z.infer<typeof ErrorInfoSchema> | null;
  /** Storage keys of the region crops this batch rendered (regions are page-local, so keys are final). */
  crops?: string[];
}

/** At most this many batches per file: fewer, larger tasks for long text files (each opens the PDF). */
const MAX_BATCHES_PER_FILE = 16;
/** Drawing sheets cost up to seconds each (vector analysis, OCR): small batches spread them over workers. */
const PAGES_PER_DRAWING_BATCH = 4;

/** Pages per extraction task for one file, from its size and how many of its pages are drawing-sized. */
export function batchSizeFor(pageCount: number, largePages: number, pagesPerBatch: number): number {
  if (largePages > pageCount / 2) return Math.min(pagesPerBatch, PAGES_PER_DRAWING_BATCH);
  return Math.max(pagesPerBatch, Math.ceil(pageCount / MAX_BATCHES_PER_FILE));
}

/** Enough to order the batches of any file; a file mostly without text has them everywhere anyway. */
export const MAX_PAGES_WITHOUT_TEXT_KEPT = 1000;

/**
 * The batches in the order to start them: those holding the most pages without text first (OCR reads
 * them, seconds per page), the others after in page order. Started last, one such batch kept the whole
 * file waiting while the other workers were idle. The batches themselves are unchanged.
 */
export function inStartOrder<B extends { from: number; to: number }>(
  batches: readonly B[],
  pagesWithoutText: readonly number[] = [],
): B[] {
  const heavy = (batch: B) =>
    pagesWithoutText.filter((page) => page >= batch.from && page <= batch.to).length;
  return batches
    .map((batch, index) => ({ batch, index, weight: heavy(batch) }))
    .sort((a, b) => b.weight - a.weight || a.index - b.index)
    .map(({ batch }) => batch);
}

export function batchesFor(pageCount: number, pagesPerBatch: number): { from: number; to: number }[] {
  const batches: { from: number; to: number }[] = [];
  for (let from = 1; from <= pageCount; from += pagesPerBatch) {
    batches.push({ from, to: Math.min(pageCount, from + pagesPerBatch - 1) });
  }
  return batches;
}

export function now(): string {
  return new Date().toISOString();
}

export async function requireJobRecord(jobs: JobStore, orgId: string, jobId: string): Promise<OwnedJob> {
  const job = await jobs.get(orgId, jobId);
  if (!job) throw new Error(`Job ${jobId} does not exist`);
  return job;
}

export async function requireJobFile(
  jobs: JobStore,
  job: OwnedJobRef,
  fileId: string,
): Promise<JobFileRecord> {
  const file = await jobs.getFile(job, fileId);
  if (!file) throw new Error(`File ${fileId} does not exist`);
  return file;
}
