import {
  type Region,
  referenceTargets,
  renormalizeRegion,
  storedFileSheets,
  withTargets,
} from '../../engine/index.ts';
import type { RegionRecord } from '../content/model.ts';
import type { RegionNormalizationStore } from '../content/ports.ts';
import type { JobFileRecord } from '../jobs/model.ts';
import { requireJobFile, requireJobRecord } from './model.ts';
import type { PipelineDeps } from './ports.ts';
import { otherDocumentsTargets } from './project-references.ts';
import { waitingKeys } from './waiting-sheets.ts';

export interface NormalizeFileInput {
  orgId: string;
  jobId: string;
  fileId: string;
  /** Regions on pages before this one were handled by an earlier run of the same file. */
  fromPage: number;
  /** Pages already counted into the job's progress by earlier runs. */
  countedPages: number;
}

export type NormalizeFileOutcome =
  | { done: false; nextPage: number; countedPages: number; normalized: number }
  | { done: true; normalized: number };

/** Consecutive pages as ranges, so the engine opens the PDF once per range. */
function ranges(pages: number[]): { from: number; to: number }[] {
  const out: { from: number; to: number }[] = [];
  for (const page of pages) {
    const last = out[out.length - 1];
    if (last && last.to === page - 1) last.to = page;
    else out.push({ from: page, to: page });
  }
  return out;
}

/**
 * Normalize the regions of one document of a repair job, up to `pagesPerRun` pages per run.
 * Input: orgId, jobId, fileId, the first page of this run and the pages counted so far.
 * Output: `done`, or the page the next run starts from (the state machine loops, so a long document
 * never outlives one task's time limit).
 * Steps: the regions whose normalizedData is missing or of an older version, from `fromPage` on; the
 * document's own upload extracted again on their pages (a page the engine cannot read again, or an
 * upload no longer stored, leaves the region's text as the only witness); each region's data saved;
 * progress counted. When no region is left, the file is `ready`. A retried run redoes its pages and
 * writes the same data.
 */
export async function normalizeFileRegions(
  deps: NormalizeDeps,
  settings: { pagesPerRun: number },
  input: NormalizeFileInput,
): Promise<NormalizeFileOutcome> {
  const job = await requireJobRecord(deps.jobs, input.orgId, input.jobId);
  const file = await requireJobFile(deps.jobs, job, input.fileId);
  if (file.status !== 'processing') return { done: true, normalized: 0 };
  const regions = (await deps.regions.regionsToNormalize(job.projectId, file.id)).filter(
    (region) => region.pageNumber >= input.fromPage,
  );
  const pages = [...new Set(regions.map((region) => region.pageNumber))].sort((a, b) => a - b);
  const run = pages.slice(0, settings.pagesPerRun);
  const fresh = await extractAgain(deps, file, run);
  const inRun = new Set(run);
  const fromPage: Record<'page' | 'text', number> = { page: 0, text: 0 };
  const repaired = regions
    .filter((candidate: RegionRecord) => inRun.has(candidate.pageNumber))
    .map((region) => {
      const { data, from } = renormalizeRegion(region, fresh.get(region.pageNumber) ?? []);
      fromPage[from]++;
      return { region, data };
    });
  await saveWithTargets(deps, job.projectId, file.id, repaired);
  const normalized = repaired.length;
  deps.log.info('Regions normalized', { fileId: file.id, pages: run.length, ...fromPage });

  const nextPage = pages[settings.pagesPerRun];
  if (nextPage !== undefined) {
    await deps.jobs.addProgress(input.orgId, input.jobId, run.length);
    return { done: false, nextPage, countedPages: input.countedPages + run.length, normalized };
  }
  await finishFile(deps, job.projectId, file, input);
  return { done: true, normalized };
}

type NormalizeDeps = PipelineDeps & { regions: RegionNormalizationStore };
type Repaired = { region: RegionRecord; data: ReturnType<typeof renormalizeRegion>['data'] };

/**
 * The regions of the run's pages, extracted again from the document's own upload (a page the engine
 * cannot read again, or an upload no longer stored, leaves the region's text as the only witness).
 */
async function extractAgain(
  deps: NormalizeDeps,
  file: JobFileRecord,
  run: number[],
): Promise<Map<number, Region[]>> {
  const fresh = new Map<number, Region[]>();
  if (run.length === 0) return fresh;
  const bytes = await deps.uploads.getBytes(file.objectKey).catch((error: Error) => {
    deps.log.error('Upload not readable; normalizing from text', { fileId: file.id, error: error.message });
    return null;
  });
  if (!bytes) return fresh;
  for (const range of ranges(run)) {
    try {
      const batch = await deps.extractor.extractPages(bytes, {
        pages: range,
        fileName: file.fileName,
        classification: file.classification,
      });
      for (const page of batch.pages) fresh.set(page.pageNumber, page.sheet?.regions ?? []);
    } catch (error) {
      deps.log.error('Pages not extracted again; normalizing from text', {
        fileId: file.id,
        ...range,
        error: (error as Error).message,
      });
    }
  }
  return fresh;
}

/**
 * Saves each region's new data with its references resolved: against the file's sheets and views (with
 * the view numbers just rebuilt), else against the project's other files.
 */
async function saveWithTargets(
  deps: NormalizeDeps,
  projectId: string,
  fileId: string,
  repaired: Repaired[],
): Promise<void> {
  const layout = await deps.regions.fileLayout(projectId, fileId);
  const rebuilt = new Map(
    repaired.map(({ region, data }) => [`${region.pageNumber}/${region.regionIndex}`, data]),
  );
  const targetOf = referenceTargets(
    storedFileSheets(
      layout.sheets,
      layout.views.map((view) => ({
        ...view,
        viewNumber: rebuilt.get(`${view.pageNumber}/${view.regionIndex}`)?.viewNumber ?? view.viewNumber,
      })),
    ),
  );
  const elsewhere =
    repaired.length > 0
      ? await otherDocumentsTargets(deps.content, projectId, fileId, await deps.regions.documents(projectId))
      : () => null;
  for (const { region, data } of repaired)
    await deps.regions.saveNormalizedData(
      projectId,
      region,
      withTargets(data, (reference) => targetOf(reference) ?? elsewhere(reference)),
    );
}

/**
 * No region left: the document's remaining pages (those with nothing to normalize) complete its share
 * of progress, its counts and the sheets it still waits for (from its references as they now stand)
 * are brought up to date, and the file is `ready`.
 */
async function finishFile(
  deps: NormalizeDeps,
  projectId: string,
  file: JobFileRecord,
  input: NormalizeFileInput,
): Promise<void> {
  await deps.jobs.addProgress(input.orgId, input.jobId, Math.max(0, file.pageCount - input.countedPages));
  await deps.regions.recountFile(projectId, file.documentId, file.id);
  await deps.content.setUnresolvedSheetRefs(
    projectId,
    file.documentId,
    waitingKeys(await deps.content.regionsWithReferences(projectId, file.id)),
  );
  await deps.jobs.updateFile(file, { status: 'ready', successfulPageCount: file.pageCount });
}
