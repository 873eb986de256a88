import { createHash } from 'node:crypto';
import { PDFDocument } from 'pdf-lib';
import { resultKey } from '../content/downloads.ts';
import {
  contentIds,
  type DocumentRecord,
  type FacetRecord,
  type FileContext,
  type RegionRecord,
  type SheetRecord,
  type SpecSectionRecord,
} from '../content/model.ts';
import type { ErrorInfo } from '../errors.ts';
import type { ExtractionResult, PageResult } from '../extraction/index.ts';
import { type JobFileRecord, type JobRecord, resultPath } from '../jobs/model.ts';
import type { JobStore } from '../jobs/ports.ts';
import type { ContentStore, CreditLedger, ObjectStore, ProjectTotalsWriter, WebhookQueue } from './ports.ts';

/**
 * The processing pipeline's steps, run by `stepfunctions/process-job.asl.json`. Every step is
 * idempotent: a retried task rewrites the same rows (deterministic keys), never charges twice and
 * never counts progress twice. One bad file (or batch) never fails the job.
 */
export interface PipelineSettings {
  creditsPerPage: number;
  pagesPerBatch: number;
  maxPagesPerFile: number;
}

export interface Extractor {
  extractPages(
    bytes: Uint8Array,
    options: {
      pages: { from: number; to: number };
      fileName: string;
      classification?: FileContext['classification'];
    },
  ): Promise<{ pageCount: number; pages: PageResult[] }>;
  assemble(
    pages: PageResult[],
    options: { pageCount: number; fileName: string; classification?: FileContext['classification'] },
  ): ExtractionResult;
  /** PNG crops of regions, in order (null where a region cannot be rendered). */
  regionCrops(
    bytes: Uint8Array,
    regions: { pageNumber: number; box: { left: number; top: number; right: number; bottom: number } }[],
  ): Promise<(Uint8Array | null)[]>;
  /** One PDF per page range (null where a range cannot be cut), reading the source once. */
  sectionPdfs(bytes: Uint8Array, ranges: { from: number; to: number }[]): Promise<(Uint8Array | null)[]>;
}

export interface PipelineDeps {
  jobs: JobStore;
  uploads: ObjectStore;
  artifacts: ObjectStore;
  content: ContentStore;
  credits: CreditLedger;
  totals: ProjectTotalsWriter;
  webhooks: WebhookQueue;
  extractor: Extractor;
}

export interface PlannedFile {
  fileId: string;
  pageCount: number;
  batches: { from: number; to: number }[];
}

export interface Plan {
  orgId: string;
  jobId: string;
  proceed: boolean;
  files: PlannedFile[];
}

const ERRORS = {
  checksum: (): ErrorInfo => ({
    code: 'checksum_mismatch',
    message: 'The stored bytes do not match the declared SHA-256; register and upload the file again.',
  }),
  notPdf: (): ErrorInfo => ({
    code: 'unsupported_file_type',
    message: 'Only PDF files are processed; this file is not a PDF.',
  }),
  encrypted: (): ErrorInfo => ({
    code: 'pdf_encrypted',
    message: 'The PDF is encrypted; upload a copy without a password.',
  }),
  malformed: (detail: string): ErrorInfo => ({
    code: 'pdf_malformed',
    message: `The PDF could not be read: ${detail}`,
  }),
  empty: (): ErrorInfo => ({ code: 'pdf_empty', message: 'The PDF has no pages.' }),
  tooManyPages: (pages: number, max: number): ErrorInfo => ({
    code: 'pdf_too_many_pages',
    message: `The PDF has ${pages} pages; at most ${max} are processed per file. Split it.`,
  }),
};

/** At most this many batches per file: fewer, larger tasks for long text files (each opens the PDF). */
const MAX_BATCHES_PER_FILE = 16;
/** Drawing sheets cost up to seconds each (vector analysis, OCR): small batches spread them over workers. */
const PAGES_PER_DRAWING_BATCH = 4;

/** Pages per extraction task for one file, from its size and how many of its pages are drawing-sized. */
export function batchSizeFor(pageCount: number, largePages: number, pagesPerBatch: number): number {
  if (largePages > pageCount / 2) return Math.min(pagesPerBatch, PAGES_PER_DRAWING_BATCH);
  return Math.max(pagesPerBatch, Math.ceil(pageCount / MAX_BATCHES_PER_FILE));
}

export function batchesFor(pageCount: number, pagesPerBatch: number): { from: number; to: number }[] {
  const batches: { from: number; to: number }[] = [];
  for (let from = 1; from <= pageCount; from += pagesPerBatch) {
    batches.push({ from, to: Math.min(pageCount, from + pagesPerBatch - 1) });
  }
  return batches;
}

async function requireJobRecord(jobs: JobStore, orgId: string, jobId: string): Promise<JobRecord> {
  const job = await jobs.get(orgId, jobId);
  if (!job) throw new Error(`Job ${jobId} does not exist`);
  return job;
}

async function inspectPdf(
  bytes: Uint8Array,
  maxPages: number,
): Promise<{ pageCount: number; largePages: number } | { error: ErrorInfo }> {
  const head = Buffer.from(bytes.subarray(0, 1024)).toString('latin1');
  if (!head.includes('%PDF-')) return { error: ERRORS.notPdf() };
  try {
    const pdf = await PDFDocument.load(bytes, { updateMetadata: false, throwOnInvalidObject: false });
    const pageCount = pdf.getPageCount();
    if (pageCount === 0) return { error: ERRORS.empty() };
    if (pageCount > maxPages) return { error: ERRORS.tooManyPages(pageCount, maxPages) };
    // Larger than legal paper on both sides: a drawing sheet.
    const largePages = pdf.getPages().filter((page) => {
      const { width, height } = page.getSize();
      return Math.min(width, height) > 8.5 * 72 * 1.05 && Math.max(width, height) > 14 * 72 * 1.05;
    }).length;
    return { pageCount, largePages };
  } catch (error) {
    if ((error as Error).name === 'EncryptedPDFError' || /encrypt/i.test((error as Error).message)) {
      return { error: ERRORS.encrypted() };
    }
    return { error: ERRORS.malformed((error as Error).message.slice(0, 200)) };
  }
}

function now(): string {
  return new Date().toISOString();
}

/**
 * Preflight: verify each uploaded file (digest, PDF, page count), reserve credits for all pages,
 * and plan the page batches. Not enough credits fails the job before any work.
 */
export async function preflightJob(
  deps: PipelineDeps,
  settings: PipelineSettings,
  input: { orgId: string; jobId: string },
): Promise<Plan> {
  const job = await requireJobRecord(deps.jobs, input.orgId, input.jobId);
  const files = await deps.jobs.allFiles(job.id);
  if (job.status === 'preflighting') {
    for (const file of files) {
      if (file.uploadStatus !== 'uploaded' || file.status !== 'processing' || file.pageCount > 0) continue;
      if (file.duplicateOfDocumentId) {
        await deps.jobs.updateFile(file, { status: 'ready' });
        file.status = 'ready';
        continue;
      }
      const bytes = await deps.uploads.getBytes(file.objectKey);
      const digest = createHash('sha256').update(bytes).digest('hex');
      const inspected =
        digest !== file.sha256
          ? { error: ERRORS.checksum() }
          : await inspectPdf(bytes, settings.maxPagesPerFile);
      const changes: Partial<JobFileRecord> =
        'error' in inspected
          ? { status: 'error', error: inspected.error }
          : {
              pageCount: inspected.pageCount,
              pagesPerBatch: batchSizeFor(inspected.pageCount, inspected.largePages, settings.pagesPerBatch),
            };
      await deps.jobs.updateFile(file, changes);
      Object.assign(file, changes);
    }
  }
  const processable = files.filter(
    (file) => file.status === 'processing' && file.uploadStatus === 'uploaded' && file.pageCount > 0,
  );
  const totalPages = processable.reduce((sum, file) => sum + file.pageCount, 0);

  if (job.status === 'preflighting') {
    const credits = totalPages * settings.creditsPerPage;
    if (credits > 0) {
      const reserved = await deps.credits.reserve(job.orgId, job.id, credits);
      if (!reserved.ok) {
        const error = {
          code: 'insufficient_credits',
          message: `Processing ${totalPages} pages needs ${credits} credits; the organization has ${reserved.available}.`,
        };
        await failJob(deps, { orgId: job.orgId, jobId: job.id, error, cancelFiles: true });
        return { orgId: job.orgId, jobId: job.id, proceed: false, files: [] };
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
    return { orgId: job.orgId, jobId: job.id, proceed: false, files: [] };
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

const batchKey = (jobId: string, fileId: string, from: number) =>
  `work/${jobId}/${fileId}/${String(from).padStart(5, '0')}.json`;

interface StoredBatch {
  from: number;
  to: number;
  pages: PageResult[];
  error: ErrorInfo | null;
  /** Storage keys of the region crops this batch rendered (regions are page-local, so keys are final). */
  crops?: string[];
}

/** Extract one batch of pages of one file and keep the page results for assembly. */
export async function extractPageBatch(
  deps: PipelineDeps,
  input: { orgId: string; jobId: string; fileId: string; from: number; to: number },
): Promise<{ pages: number; failed: boolean }> {
  const key = batchKey(input.jobId, input.fileId, input.from);
  const done = await deps.artifacts.getJson<StoredBatch>(key);
  if (done) return { pages: done.pages.length, failed: done.error !== null };
  const file = await deps.jobs.getFile(input.jobId, input.fileId);
  if (!file) throw new Error(`File ${input.fileId} does not exist`);
  const bytes = await deps.uploads.getBytes(file.objectKey);
  let stored: StoredBatch;
  try {
    const batch = await deps.extractor.extractPages(bytes, {
      pages: { from: input.from, to: input.to },
      fileName: file.fileName,
      ...(file.classificationDeclared ? { classification: file.classification } : {}),
    });
    stored = { from: input.from, to: input.to, pages: batch.pages, error: null };
    // Crops are rendered here, in the parallel batch tasks, rather than in the single assembly task.
    const ctx = { orgId: file.orgId, projectId: file.projectId, fileId: file.id };
    const wanted = batch.pages.flatMap((page) =>
      (page.sheet?.regions ?? []).map((region, index) => ({
        pageNumber: page.pageNumber,
        box: region.displayBox,
        key: artifactKey.crop(ctx, contentIds.region(file.id, page.pageNumber, index)),
      })),
    );
    const rendered = await deps.extractor.regionCrops(bytes, wanted).catch(() => [] as (Uint8Array | null)[]);
    stored.crops = [];
    for (const [index, crop] of rendered.entries()) {
      const target = wanted[index];
      if (!crop || !target) continue;
      await deps.artifacts.putBytes(target.key, crop, 'image/png');
      stored.crops.push(target.key);
    }
  } catch (error) {
    const code = (error as { code?: string }).code ?? 'extraction_failed';
    stored = {
      from: input.from,
      to: input.to,
      pages: [],
      error: { code, message: (error as Error).message.slice(0, 300) },
    };
  }
  await deps.artifacts.putJson(key, stored);
  await deps.jobs.addProgress(input.orgId, input.jobId, input.to - input.from + 1);
  return { pages: stored.pages.length, failed: stored.error !== null };
}

type StorageOwner = Pick<FileContext, 'orgId' | 'projectId' | 'fileId'>;

const artifactKey = {
  crop: (ctx: StorageOwner, regionId: string) =>
    `orgs/${ctx.orgId}/projects/${ctx.projectId}/files/${ctx.fileId}/regions/${regionId}.png`,
  section: (ctx: StorageOwner, sectionId: string) =>
    `orgs/${ctx.orgId}/projects/${ctx.projectId}/files/${ctx.fileId}/sections/${sectionId}.pdf`,
};

/** Assemble a file from its batches, store its rows and artifacts, and mark it ready (or error). */
export async function assembleFile(
  deps: PipelineDeps,
  settings: PipelineSettings,
  input: { orgId: string; jobId: string; fileId: string },
): Promise<{ status: 'ready' | 'error'; successfulPages: number }> {
  const job = await requireJobRecord(deps.jobs, input.orgId, input.jobId);
  const file = await deps.jobs.getFile(input.jobId, input.fileId);
  if (!file) throw new Error(`File ${input.fileId} does not exist`);
  if (file.status !== 'processing')
    return { status: file.status === 'ready' ? 'ready' : 'error', successfulPages: file.successfulPageCount };

  const pages: PageResult[] = [];
  const renderedCrops = new Set<string>();
  let batchError: ErrorInfo | null = null;
  for (const batch of batchesFor(file.pageCount, file.pagesPerBatch ?? settings.pagesPerBatch)) {
    const stored = await deps.artifacts.getJson<StoredBatch>(batchKey(job.id, file.id, batch.from));
    if (!stored || stored.error)
      batchError ??= stored?.error ?? {
        code: 'batch_missing',
        message: 'A batch of pages was not processed.',
      };
    if (stored) pages.push(...stored.pages);
    for (const key of stored?.crops ?? []) renderedCrops.add(key);
  }
  const successfulPages = pages.filter((page) => page.issue === null).length;
  if (pages.length === 0) {
    const error = batchError ?? {
      code: 'extraction_failed',
      message: 'No page of the file could be processed.',
    };
    await deps.jobs.updateFile(file, { status: 'error', error, successfulPageCount: 0 });
    return { status: 'error', successfulPages: 0 };
  }

  const ctx: FileContext = {
    orgId: job.orgId,
    projectId: job.projectId,
    jobId: job.id,
    fileId: file.id,
    documentId: file.documentId,
    fileName: file.fileName,
    classification: file.classification,
  };
  const result = deps.extractor.assemble(pages, {
    pageCount: file.pageCount,
    fileName: file.fileName,
    ...(file.classificationDeclared ? { classification: file.classification } : {}),
  });
  ctx.classification = result.classification;
  const bytes = await deps.uploads.getBytes(file.objectKey);
  const content = await buildContent(deps, ctx, file, result, bytes, successfulPages, renderedCrops);
  await deps.content.writeFileContent(job.projectId, file.id, content);
  await deps.jobs.updateFile(file, {
    status: 'ready',
    classification: result.classification,
    successfulPageCount: successfulPages,
    error: batchError,
  });
  return { status: 'ready', successfulPages };
}

async function buildContent(
  deps: PipelineDeps,
  ctx: FileContext,
  file: JobFileRecord,
  result: ExtractionResult,
  bytes: Uint8Array,
  successfulPages: number,
  renderedCrops: ReadonlySet<string>,
) {
  const sheets: SheetRecord[] = [];
  const regions: RegionRecord[] = [];
  const pageClass = new Map(result.pages.map((page) => [page.pageNumber, page.classification]));
  // Crops the batch tasks did not render (a batch without them, an older stored batch) are rendered here.
  const missing = result.sheets.flatMap((sheet) =>
    sheet.regions
      .map((region, index) => ({
        pageNumber: sheet.pageNumber,
        box: region.displayBox,
        key: artifactKey.crop(ctx, contentIds.region(ctx.fileId, sheet.pageNumber, index)),
      }))
      .filter((crop) => !renderedCrops.has(crop.key)),
  );
  const late = await deps.extractor.regionCrops(bytes, missing).catch(() => [] as (Uint8Array | null)[]);
  const cropKeys = new Set(renderedCrops);
  for (const [index, crop] of late.entries()) {
    const target = missing[index];
    if (!crop || !target) continue;
    await deps.artifacts.putBytes(target.key, crop, 'image/png');
    cropKeys.add(target.key);
  }
  for (const sheet of result.sheets) {
    const sheetId = contentIds.sheet(ctx.fileId, sheet.pageNumber);
    sheets.push({
      projectId: ctx.projectId,
      sheetId,
      fileId: ctx.fileId,
      documentId: ctx.documentId,
      fileName: ctx.fileName,
      fileNameLower: ctx.fileName.toLowerCase(),
      pageNumber: sheet.pageNumber,
      sheetNumber: sheet.sheetNumber,
      sheetTitle: sheet.sheetTitle,
      discipline: sheet.discipline,
      revisions: sheet.revisions,
      pageSize: sheet.pageSize,
      textSource: sheet.textSource,
      confidence: sheet.confidence,
      regionCount: sheet.regions.length,
    });
    for (const [index, region] of sheet.regions.entries()) {
      const regionId = contentIds.region(ctx.fileId, sheet.pageNumber, index);
      const candidate = artifactKey.crop(ctx, regionId);
      const cropKey = cropKeys.has(candidate) ? candidate : null;
      regions.push({
        projectId: ctx.projectId,
        regionId,
        regionIndex: index,
        fileId: ctx.fileId,
        sheetId,
        fileName: ctx.fileName,
        fileNameLower: ctx.fileName.toLowerCase(),
        pageNumber: sheet.pageNumber,
        sheetNumber: sheet.sheetNumber ?? '',
        label: region.label,
        regionType: region.regionType,
        drawingType: region.drawingType,
        layoutType: pageClass.get(sheet.pageNumber) === 'plans' ? 'drawing_sheet' : 'document_page',
        classification: ctx.classification,
        text: region.text,
        textSource: region.textSource,
        ocrConfidence: region.ocrConfidence,
        displayBox: region.displayBox,
        titleDisplayBox: region.titleDisplayBox ?? region.displayBox,
        normalizedData: region.normalizedData,
        normalized: true,
        cropPath: cropKey,
      });
    }
  }
  const sections: SpecSectionRecord[] = [];
  const facets: FacetRecord[] = [];
  const realSections = result.specifications.filter((section) => !section.isTableOfContents);
  const pdfs = await deps.extractor
    .sectionPdfs(
      bytes,
      realSections.map((section) => ({ from: section.pageStart, to: section.pageEnd })),
    )
    .catch(() => [] as (Uint8Array | null)[]);
  for (const [index, section] of realSections.entries()) {
    const specificationId = contentIds.section(ctx.fileId, index);
    const pdf = pdfs[index] ?? null;
    const pdfKey = pdf ? artifactKey.section(ctx, specificationId) : null;
    if (pdf && pdfKey) await deps.artifacts.putBytes(pdfKey, pdf, 'application/pdf');
    sections.push({
      projectId: ctx.projectId,
      specificationId,
      specId: ctx.documentId,
      fileId: ctx.fileId,
      fileName: ctx.fileName,
      fileNameLower: ctx.fileName.toLowerCase(),
      classification: ctx.classification,
      sectionIndex: index,
      sectionNumber: section.sectionNumber,
      sectionTitle: section.sectionTitle,
      pageStart: section.pageStart,
      pageEnd: section.pageEnd,
      textLength: section.textLength,
      facetCount: section.facets.length,
      pdfPath: pdfKey,
    });
    for (const [facetIndex, facet] of section.facets.entries()) {
      facets.push({
        projectId: ctx.projectId,
        specificationId,
        facetId: contentIds.facet(ctx.fileId, index, facetIndex),
        facetIndex,
        facetKey: facet.facetKey,
        facetKind: facet.facetKind,
        facetLabel: facet.facetLabel,
        coverageKind: facet.coverageKind,
        facetText: facet.facetText,
        pageStart: facet.pageStart,
        pageEnd: facet.pageEnd,
      });
    }
  }
  const document: DocumentRecord = {
    orgId: ctx.orgId,
    projectId: ctx.projectId,
    documentId: ctx.documentId,
    fileId: ctx.fileId,
    jobId: ctx.jobId,
    fileName: ctx.fileName,
    fileNameLower: ctx.fileName.toLowerCase(),
    contentType: file.contentType,
    fileSize: file.fileSize,
    sha256: file.sha256,
    classification: result.classification,
    classificationSource: result.classificationSource,
    pageCount: result.pageCount,
    successfulPageCount: successfulPages,
    sheetCount: sheets.length,
    specificationCount: sections.length,
    status: 'ready',
    createdAt: now(),
  };
  return { document, sheets, regions, sections, facets };
}

/** Debit the pages that succeeded, release the rest, store the result once, and complete the job. */
export async function finalizeJob(
  deps: PipelineDeps,
  settings: PipelineSettings,
  input: { orgId: string; jobId: string },
) {
  const job = await requireJobRecord(deps.jobs, input.orgId, input.jobId);
  if (job.status !== 'processing') return { status: job.status };
  const files = await deps.jobs.allFiles(job.id);
  for (const file of files) {
    // A file whose assembly never ran (its branch failed) does not stay "processing".
    if (file.status === 'processing') {
      const error = { code: 'extraction_failed', message: 'The file could not be processed.' };
      await deps.jobs.updateFile(file, { status: 'error', error });
      Object.assign(file, { status: 'error', error });
    }
  }
  const successful = files.reduce(
    (sum, file) => sum + (file.status === 'ready' ? file.successfulPageCount : 0),
    0,
  );
  const debit = successful * settings.creditsPerPage;
  await deps.credits.settle(job.orgId, job.id, job.creditsReserved, debit);

  const completedAt = now();
  const anyReady = files.some((file) => file.status === 'ready');
  const status = anyReady ? 'completed' : 'failed';
  const error = anyReady
    ? null
    : { code: 'no_file_processed', message: "No file of the job could be processed; see each file's error." };
  const resultDocument = {
    jobId: job.id,
    projectId: job.projectId,
    status,
    completedAt,
    pageCount: job.pageCount,
    successfulPageCount: successful,
    failedPageCount: Math.max(0, job.pageCount - successful),
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
    resultKey(job.orgId, job.projectId, job.id),
    new TextEncoder().encode(JSON.stringify(resultDocument)),
    'application/json',
  );
  const changes: Partial<JobRecord> = {
    successfulPageCount: successful,
    failedPageCount: Math.max(0, job.pageCount - successful),
    creditsDebited: debit,
    creditsReserved: 0,
    completedAt,
    error,
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
  // Publish before the transition: a retried task publishes again (webhooks are at-least-once, with
  // a stable event id), whereas a transition made first could end the job without its notification.
  await publishOutcome(deps, { ...job, ...changes, status });
  await deps.jobs.transition(job.orgId, job.id, ['processing'], status, changes);
  return { status };
}

/** End the job as failed: release the reservation, fail unfinished files, tell the project and the webhook. */
export async function failJob(
  deps: PipelineDeps,
  input: { orgId: string; jobId: string; error?: ErrorInfo; cancelFiles?: boolean },
): Promise<{ status: 'failed' }> {
  const job = await requireJobRecord(deps.jobs, input.orgId, input.jobId);
  if (job.status === 'completed' || job.status === 'failed') return { status: 'failed' };
  if (job.creditsReserved > 0) await deps.credits.settle(job.orgId, job.id, job.creditsReserved, 0);
  const error = input.error ?? {
    code: 'processing_failed',
    message: 'The job could not be processed. No credits were charged.',
  };
  for (const file of await deps.jobs.allFiles(job.id)) {
    if (file.status === 'processing') {
      await deps.jobs.updateFile(
        file,
        input.cancelFiles ? { status: 'cancelled', error } : { status: 'error', error },
      );
    }
  }
  const completedAt = now();
  const changes: Partial<JobRecord> = {
    error,
    completedAt,
    creditsReserved: 0,
    progress: { ...job.progress, phase: 'failed', message: error.message, updatedAt: completedAt },
  };
  // Best effort here: a job must end even when notifications cannot be sent (clients can poll it).
  await publishOutcome(deps, { ...job, ...changes, status: 'failed' }).catch((publishError: Error) => {
    console.error(
      JSON.stringify({
        level: 'ERROR',
        message: 'Job outcome not published',
        jobId: job.id,
        error: publishError.message,
      }),
    );
  });
  await deps.jobs.transition(
    job.orgId,
    job.id,
    ['awaiting_uploads', 'uploading', 'preflighting', 'processing'],
    'failed',
    changes,
  );
  return { status: 'failed' };
}

async function publishOutcome(deps: PipelineDeps, job: JobRecord): Promise<void> {
  const totals = await deps.content.projectTotals(job.projectId);
  await deps.totals.saveTotals(job.orgId, job.projectId, totals);
  const event = job.status === 'completed' ? 'job.completed' : 'job.failed';
  await deps.webhooks.enqueue({
    orgId: job.orgId,
    event,
    payload: {
      eventId: `${job.id}.${event}`,
      jobId: job.id,
      projectId: job.projectId,
      status: job.status,
      completedAt: job.completedAt,
      pageCount: job.pageCount,
      successfulPageCount: job.successfulPageCount,
      failedPageCount: job.failedPageCount,
      error: job.error,
      resultUrl: resultPath(job.id),
    },
  });
}

/** The Map branch of one file failed after its retries: that file alone ends in error. */
export async function failFile(deps: PipelineDeps, input: { orgId: string; jobId: string; fileId: string }) {
  const file = await deps.jobs.getFile(input.jobId, input.fileId);
  if (file?.status !== 'processing') return { status: file?.status ?? 'missing' };
  await deps.jobs.updateFile(file, {
    status: 'error',
    error: {
      code: 'extraction_failed',
      message: 'The file could not be processed; other files of the job were.',
    },
  });
  return { status: 'error' };
}
