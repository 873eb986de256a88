import pLimit from 'p-limit';
import type { PageResult } from '../../engine/index.ts';
import { contentIds, type DocumentRecord, type FileContext } from '../content/model.ts';
import type { ErrorInfo } from '../errors.ts';
import type { JobFileRecord, OwnedJob } from '../jobs/model.ts';
import { linkRevisedSheets } from '../revisions/link-revised-sheets.ts';
import { objectKeys } from '../storage-keys.ts';
import { contentPassages, contentRows } from './content-rows.ts';
import { type PageSpan, PIPELINE_ERRORS } from './errors.ts';
import { batchesFor, requireJobFile, requireJobRecord, type StoredBatch } from './model.ts';
import type { PipelineDeps, PipelineSettings } from './ports.ts';
import { linkFileReferences, resolveWaitingDocuments } from './project-references.ts';
import { type CropRenderer, PUTS_IN_FLIGHT, renderAndStoreCrops } from './region-crops.ts';
import { sheetTextOutsideRegions } from './sheet-text.ts';

type Assembled = ReturnType<PipelineDeps['extractor']['assemble']>;

/**
 * Assemble one file.
 * Input: orgId, jobId, fileId (a file whose batches have all run).
 * Output: the file's status (`ready` or `error`) and its successful page count.
 * Steps: gather the stored batches (a missing or failed batch is recorded as the file's error, naming
 * every page left without a result; the rest kept); assemble the document (sheets, regions, sections);
 * render the crops the batch tasks did not; write the file's rows, cutting and storing one PDF per
 * section meanwhile; mark it ready; link its sheets to the earlier printings they revise (revisions/
 * link-revised-sheets.ts). A file already assembled is returned as it is, its links made again.
 */
export async function assembleFile(
  deps: PipelineDeps,
  settings: PipelineSettings,
  input: { orgId: string; jobId: string; fileId: string },
): Promise<{ status: 'ready' | 'error'; successfulPages: number }> {
  const job = await requireJobRecord(deps.jobs, input.orgId, input.jobId);
  const file = await requireJobFile(deps.jobs, job, input.fileId);
  if (file.status === 'ready') {
    // A retried task: the links it may not have finished are made again (a link made is kept).
    await linkRevisions(deps, job, file);
    return { status: 'ready', successfulPages: file.successfulPageCount };
  }
  if (file.status !== 'processing') return { status: 'error', successfulPages: file.successfulPageCount };

  const { pages, cropKeys, batchError } = await gatherBatches(deps, settings, job, file);
  const successfulPages = pages.filter((page) => page.issue === null).length;
  if (pages.length === 0) {
    const error = batchError ?? PIPELINE_ERRORS.noPageProcessed();
    await deps.jobs.updateFile(file, { status: 'error', error, successfulPageCount: 0 });
    return { status: 'error', successfulPages: 0 };
  }
  const result = deps.extractor.assemble(pages, {
    pageCount: file.pageCount,
    fileName: file.fileName,
    ...(file.classificationDeclared ? { classification: file.classification } : {}),
  });
  const ctx: FileContext = {
    orgId: job.orgId,
    projectId: job.projectId,
    jobId: job.id,
    fileId: file.id,
    documentId: file.documentId,
    fileName: file.fileName,
    classification: result.classification,
  };
  const bytes = await deps.uploads.getBytes(file.objectKey);
  for (const key of await renderMissingCrops(deps, ctx, result, bytes, cropKeys)) cropKeys.add(key);
  await writeFileContent(deps, { ctx, file, result, pages, bytes, cropKeys, successfulPages });
  await deps.jobs.updateFile(file, {
    status: 'ready',
    classification: result.classification,
    successfulPageCount: successfulPages,
    error: batchError,
  });
  await linkRevisions(deps, job, file);
  return { status: 'ready', successfulPages };
}

/**
 * Records which of the file's sheets revise sheets of the project's other jobs, once the file is ready
 * (its sheet rows are never rewritten after). Never fails the file: a failure is logged and its sheets
 * stay current.
 */
async function linkRevisions(deps: PipelineDeps, job: OwnedJob, file: JobFileRecord): Promise<void> {
  try {
    await linkRevisedSheets(deps, { projectId: job.projectId, jobId: job.id, fileId: file.id });
  } catch (error) {
    deps.log.error("Revised sheets not linked; the file's sheets stay current", {
      fileId: file.id,
      error: (error as Error).message,
    });
  }
}

/**
 * The stored batches' pages and crops, and the file's error when a batch is missing or failed: pages
 * without a result (a batch whose task gave up stored nothing; a batch that failed part way kept the
 * pages before the failure) are named on it, so none is dropped unsaid.
 */
async function gatherBatches(
  deps: PipelineDeps,
  settings: PipelineSettings,
  job: OwnedJob,
  file: JobFileRecord,
): Promise<{ pages: PageResult[]; cropKeys: Set<string>; batchError: ErrorInfo | null }> {
  const pages: PageResult[] = [];
  const cropKeys = new Set<string>();
  let batchError: ErrorInfo | null = null;
  const missing: PageSpan[] = [];
  for (const batch of batchesFor(file.pageCount, file.pagesPerBatch ?? settings.pagesPerBatch)) {
    const stored = await deps.artifacts.getJson<StoredBatch>(
      objectKeys.pageBatch(job.id, file.id, batch.from),
    );
    if (!stored) missing.push(batch);
    if (stored?.error) batchError ??= stored.error;
    if (stored) pages.push(...stored.pages);
    for (const key of stored?.crops ?? []) cropKeys.add(key);
  }
  const absent = absentPages(file.pageCount, pages);
  if (missing.length > 0) batchError = PIPELINE_ERRORS.batchMissing(absent);
  else if (batchError && absent.length > 0) batchError = PIPELINE_ERRORS.pagesLost(batchError, absent);
  return { pages, cropKeys, batchError };
}

/** Renders and stores the crops the batch tasks did not (a batch without them, an older stored batch). */
function renderMissingCrops(
  deps: PipelineDeps,
  ctx: FileContext,
  result: Assembled,
  bytes: Uint8Array,
  cropKeys: Set<string>,
): Promise<string[]> {
  const missingCrops = result.sheets.flatMap((sheet) =>
    sheet.regions
      .map((region, index) => ({
        pageNumber: sheet.pageNumber,
        box: region.displayBox,
        key: objectKeys.regionCrop(ctx, contentIds.region(ctx.fileId, sheet.pageNumber, index)),
      }))
      .filter((crop) => !cropKeys.has(crop.key)),
  );
  const render: CropRenderer = (regions) => deps.extractor.regionCrops(bytes, regions);
  return renderAndStoreCrops(deps, render, missingCrops);
}

/**
 * Replaces the file's rows: its sections point to their PDFs, cut and stored while the other rows are
 * written; its passages are stored before the document row says ready (indexing and reconcile read them
 * then); references to sheets of the project's other files are resolved before the rows are written,
 * and the documents that waited for this file's sheets after.
 */
async function writeFileContent(
  deps: PipelineDeps,
  input: {
    ctx: FileContext;
    file: JobFileRecord;
    result: Assembled;
    pages: PageResult[];
    bytes: Uint8Array;
    cropKeys: Set<string>;
    successfulPages: number;
  },
): Promise<void> {
  const { ctx, file, result, pages } = input;
  const realSections = result.specifications.filter((section) => !section.isTableOfContents);
  const sectionsStored = storeSectionPdfs(deps, ctx, input.bytes, realSections);
  sectionsStored.catch(() => undefined);
  const pageResults = new Map(pages.map((page) => [page.pageNumber, page]));
  const linesOf = (pageNumber: number) =>
    (pageResults.get(pageNumber)?.lines ?? []).map(({ text, x0, y0, x1, y1 }) => ({ text, x0, y0, x1, y1 }));
  const pageLines = (pageNumber: number) => linesOf(pageNumber).map((line) => line.text);
  const documentPages = [
    ...result.pages
      .filter((page) => page.classification === 'documents')
      .map((page) => ({ pageNumber: page.pageNumber, lines: linesOf(page.pageNumber) })),
    ...sheetTextOutsideRegions(result.sheets, linesOf),
  ];
  const { content: ownContent } = contentRows({
    ctx,
    file,
    result,
    successfulPages: input.successfulPages,
    cropKeys: input.cropKeys,
    sections: realSections.map((section) => ({ section, pdfKey: null })),
    documentPages,
    pageLines,
  });
  const finalSections = async () => {
    const stored = await sectionsStored;
    const sections = ownContent.sections.map((row, index) => ({
      ...row,
      pdfPath: stored[index]?.pdfKey ?? null,
    }));
    const passages = contentPassages(ctx, { ...ownContent, sections }, documentPages, pageLines);
    await deps.artifacts.putJson(objectKeys.fileSources(ctx), passages);
    return sections;
  };
  // The project's documents are read at most once for both reference steps.
  let projectDocuments: Promise<DocumentRecord[]> | undefined;
  const documents = () => {
    projectDocuments ??= deps.content.documents(ctx.projectId);
    return projectDocuments;
  };
  const content = await linkFileReferences(deps.content, ctx.projectId, ownContent, documents);
  await deps.content.writeFileContent(ctx.projectId, file.id, content, finalSections);
  await resolveWaitingDocuments(deps.content, ctx.projectId, content, documents);
}

/**
 * Cuts one PDF per section from the source (read once) and stores each as soon as it is cut (the next
 * one is cut meanwhile); a section whose PDF cannot be cut has none, and none has one when the source
 * cannot be loaded. A failed store fails the call (the task is retried) once the other stores settled.
 */
async function storeSectionPdfs<S extends { pageStart: number; pageEnd: number }>(
  deps: PipelineDeps,
  ctx: FileContext,
  bytes: Uint8Array,
  sections: S[],
): Promise<{ section: S; pdfKey: string | null }[]> {
  const limit = pLimit(PUTS_IN_FLIGHT);
  const stores: Promise<string | null>[] = [];
  try {
    const ranges = sections.map((section) => ({ from: section.pageStart, to: section.pageEnd }));
    for await (const pdf of deps.extractor.sectionPdfs(bytes, ranges)) {
      const pdfKey = objectKeys.sectionPdf(ctx, contentIds.section(ctx.fileId, stores.length));
      const stored = pdf
        ? limit(async () => {
            await deps.artifacts.putBytes(pdfKey, pdf, 'application/pdf');
            return pdfKey;
          })
        : Promise.resolve(null);
      // Handled now, thrown below: a store that fails while later sections are cut is not unhandled.
      stored.catch(() => undefined);
      stores.push(stored);
    }
  } catch (error) {
    deps.log.error('Section PDFs not cut', { error: (error as Error).message, sections: sections.length });
  }
  const keys = await Promise.allSettled(stores);
  const failed = keys.find((outcome) => outcome.status === 'rejected');
  if (failed) throw failed.reason;
  return sections.map((section, index) => {
    const outcome = keys[index];
    return { section, pdfKey: outcome?.status === 'fulfilled' ? outcome.value : null };
  });
}

/** The spans of pages 1..pageCount that have no result. */
function absentPages(pageCount: number, pages: PageResult[]): PageSpan[] {
  const present = new Set(pages.map((page) => page.pageNumber));
  const spans: PageSpan[] = [];
  for (let page = 1; page <= pageCount; page++) {
    if (present.has(page)) continue;
    const last = spans.at(-1);
    if (last && last.to === page - 1) last.to = page;
    else spans.push({ from: page, to: page });
  }
  return spans;
}
