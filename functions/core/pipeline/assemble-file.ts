import pLimit from 'p-limit';
import { contentIds, type DocumentRecord, type FileContext } from '../content/model.ts';
import type { ErrorInfo } from '../errors.ts';
import type { PageResult } from '../extraction/index.ts';
import { objectKeys } from '../storage-keys.ts';
import { contentPassages, contentRows } from './content-rows.ts';
import { type PageSpan, PIPELINE_ERRORS } from './errors.ts';
import { batchesFor, requireJobFile, requireJobRecord, type StoredBatch } from './model.ts';
import type { PipelineDeps, PipelineSettings } from './ports.ts';
import { linkFileReferences, resolveWaitingDocuments } from './project-references.ts';
import { type CropRenderer, PUTS_IN_FLIGHT, renderAndStoreCrops } from './region-crops.ts';
import { sheetTextOutsideRegions } from './sheet-text.ts';

/**
 * Assemble one file.
 * Input: orgId, jobId, fileId (a file whose batches have all run).
 * Output: the file's status (`ready` or `error`) and its successful page count.
 * Steps: gather the stored batches (a missing or failed batch is recorded as the file's error, naming
 * every page left without a result; the rest kept); assemble the document (sheets, regions, sections); render the crops the
 * batch tasks did not; cut and store one PDF per section; replace the file's rows; mark it ready.
 * A file already assembled is returned as it is.
 */
export async function assembleFile(
  deps: PipelineDeps,
  settings: PipelineSettings,
  input: { orgId: string; jobId: string; fileId: string },
): Promise<{ status: 'ready' | 'error'; successfulPages: number }> {
  const job = await requireJobRecord(deps.jobs, input.orgId, input.jobId);
  const file = await requireJobFile(deps.jobs, job, input.fileId);
  if (file.status !== 'processing')
    return { status: file.status === 'ready' ? 'ready' : 'error', successfulPages: file.successfulPageCount };

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
  // Pages without a result (a batch whose task gave up stored nothing; a batch that failed part way
  // kept the pages before the failure) are named on the file's error: none is dropped unsaid.
  const absent = absentPages(file.pageCount, pages);
  if (missing.length > 0) batchError = PIPELINE_ERRORS.batchMissing(absent);
  else if (batchError && absent.length > 0) batchError = PIPELINE_ERRORS.pagesLost(batchError, absent);
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

  // Crops the batch tasks did not render (a batch without them, an older stored batch) are rendered here.
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
  for (const key of await renderAndStoreCrops(deps, render, missingCrops)) cropKeys.add(key);

  // The section PDFs are cut and stored while the other rows are written (below): the sections' rows,
  // the passages and the document row wait for them.
  const realSections = result.specifications.filter((section) => !section.isTableOfContents);
  const sectionsStored = storeSectionPdfs(deps, ctx, bytes, realSections);
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
    successfulPages,
    cropKeys,
    sections: realSections.map((section) => ({ section, pdfKey: null })),
    documentPages,
    pageLines,
  });
  // Once the PDFs are stored: the sections point to them, and the passages are stored before the
  // document row says ready (indexing and reconcile read them then).
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
  // References to sheets of the project's other files are resolved before the rows are written, and
  // the documents that waited for this file's sheets after.
  // The project's documents are read at most once for both steps.
  let projectDocuments: Promise<DocumentRecord[]> | undefined;
  const documents = () => {
    projectDocuments ??= deps.content.documents(job.projectId);
    return projectDocuments;
  };
  const content = await linkFileReferences(deps.content, job.projectId, ownContent, documents);
  await deps.content.writeFileContent(job.projectId, file.id, content, finalSections);
  await resolveWaitingDocuments(deps.content, job.projectId, content, documents);
  await deps.jobs.updateFile(file, {
    status: 'ready',
    classification: result.classification,
    successfulPageCount: successfulPages,
    error: batchError,
  });
  return { status: 'ready', successfulPages };
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
