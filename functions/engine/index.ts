/**
 * Extraction engine: pure functions of PDF bytes.
 *
 * - extractDocument(bytes, options): the whole result for one file.
 * - extractPages(bytes, range, options) + assembleDocument(pageResults, ...): the same in page batches, so a
 *   pipeline can fan out and assemble (specification sections span batches).
 * - renderRegionCrop / renderOverlay: artifacts; inspectPdf / buildSectionPdfs: the PDF's structure (pdf-lib).
 */

import { assembleDocument } from './assembly/assemble.ts';
import { ExtractionError } from './errors.ts';
import { cropsOfOpenDocument } from './io/artifacts.ts';
import { parkOcrWorker, terminateOcr } from './io/ocr.ts';
import { openPdf } from './io/pdf.ts';
import { openWarmDocument } from './io/warm-document.ts';
import { defaultWorkerCount, extractPagesInWorkers } from './io/workers.ts';
import { type ExtractionLimits, resolveLimits } from './limits.ts';
import type { Classification, DisplayBox, ExtractionResult } from './model.ts';
import { type OcrMode, type PageResult, processPage } from './pages/page.ts';

export { assembleDocument } from './assembly/assemble.ts';
export { type FileSheets, referenceTargets, withTargets } from './assembly/reference-targets.ts';
export {
  type Renormalized,
  renormalizeRegion,
  type StoredRegion,
  storedFileSheets,
} from './assembly/renormalize.ts';
export { engineRegionId } from './drawings/region-draft.ts';
export { ExtractionError, isExtractionError } from './errors.ts';
export { renderOverlay, renderRegionCrop, renderRegionCrops } from './io/artifacts.ts';
export { buildSectionPdf, buildSectionPdfs, inspectPdf, type PdfInspection } from './io/pdf-structure.ts';
export { DEFAULT_LIMITS, type ExtractionLimits } from './limits.ts';
export * from './model.ts';
export type { PageResult } from './pages/page.ts';

export interface PageRange {
  from: number;
  to: number;
}

export interface ExtractOptions {
  fileName?: string;
  /** Skip detection and use this classification for the document. */
  classification?: Classification;
  /** 1-based inclusive page range; default all pages. */
  pages?: PageRange;
  /** OCR pages without usable text: `auto` (default) only where needed, `false` never, `true` always. */
  ocr?: OcrMode;
  limits?: Partial<ExtractionLimits>;
}

export interface ParallelOptions {
  /**
   * Worker threads for extractDocument: a number, or `auto` (the available cores, at most 4). Default 1
   * (this thread). Worker threads load `worker-entry` next to this module; bundlers must emit it.
   */
  workers?: number | 'auto';
  /** Pages per worker task (default 16; a worker keeps the document, and its parsed fonts, across tasks). */
  batchSize?: number;
  /** Heap cap per worker thread in MB (default 768). */
  maxWorkerHeapMb?: number;
}

export interface PageBatch {
  pageCount: number;
  pages: PageResult[];
}

const checkRange = (range: PageRange | undefined, pageCount: number): PageRange => {
  const from = range?.from ?? 1;
  const to = Math.min(range?.to ?? pageCount, pageCount);
  if (!Number.isInteger(from) || !Number.isInteger(to) || from < 1 || from > pageCount || to < from) {
    throw new ExtractionError(
      'invalid_page_range',
      `Invalid page range ${from}-${to} for ${pageCount} pages.`,
    );
  }
  return { from, to };
};

/** One opened PDF whose pages are extracted range by range: the file is checked and parsed once. */
export interface PageExtractor {
  readonly pageCount: number;
  /** PageResults of a 1-based inclusive range, in page order. */
  extract(range: PageRange): Promise<PageResult[]>;
  /** PNG crops of regions of its pages (null where one cannot be rendered), from the same open document. */
  regionCrops(
    crops: readonly { pageNumber: number; box: DisplayBox }[],
    dpi?: number,
  ): Promise<(Uint8Array | null)[]>;
  /** Frees the document (and the OCR worker); the extractor cannot be used after. */
  close(): Promise<void>;
}

export interface OpenOptions extends Omit<ExtractOptions, 'pages'> {
  /**
   * Leave the document open and the OCR worker running when the extractor closes, for the next one in
   * this thread (a pipeline task in a warm function, whose next batch is often of the same file): the
   * file's parsing and fonts cost about 0.1 s per batch of a text book, starting an OCR worker about 0.9 s
   * of CPU. Both end after a minute unused (the worker also on a timed-out recognition; the document when
   * another file is opened). Default false (close frees both).
   */
  keepWarm?: boolean;
}

/**
 * Opens the bytes once for several ranges (a pipeline task that extracts its pages in timed chunks): the
 * file's checks, its parsing and the fonts its pages share are paid once, not once per range. The file's
 * time and OCR budgets run from the opening, as for one `extractPages` call.
 */
export const openPageExtractor = async (
  bytes: Uint8Array,
  options: OpenOptions = {},
): Promise<PageExtractor> => {
  const limits = resolveLimits(options.limits);
  const started = Date.now();
  const warm = options.keepWarm ? await openWarmDocument(bytes, limits) : null;
  const opened = warm?.opened ?? (await openPdf(bytes, limits));
  const { pageCount } = opened;
  const ocrBudget = { pagesLeft: limits.maxOcrPages };
  return {
    pageCount,
    async extract(wanted) {
      const range = checkRange(wanted, pageCount);
      const pages: PageResult[] = [];
      for (let pageNumber = range.from; pageNumber <= range.to; pageNumber++) {
        if (Date.now() - started > limits.fileTimeoutMs) {
          throw new ExtractionError('file_timeout', `The file took more than ${limits.fileTimeoutMs} ms.`);
        }
        pages.push(await processPage(opened, pageNumber, { limits, ocr: options.ocr ?? 'auto', ocrBudget }));
      }
      return pages;
    },
    regionCrops(crops, dpi = 110) {
      return cropsOfOpenDocument(opened.pdfium, crops, dpi, limits);
    },
    async close() {
      if (warm) {
        await warm.release();
        parkOcrWorker();
      } else {
        await opened.close();
        await terminateOcr();
      }
    },
  };
};

/** Processes a range of pages (default all) and returns their PageResults, in page order. */
export const extractPages = async (bytes: Uint8Array, options: ExtractOptions = {}): Promise<PageBatch> => {
  const extractor = await openPageExtractor(bytes, options);
  try {
    const pages = await extractor.extract(options.pages ?? { from: 1, to: extractor.pageCount });
    return { pageCount: extractor.pageCount, pages };
  } finally {
    await extractor.close();
  }
};

/** Extracts one whole PDF (or `options.pages`) into an ExtractionResult. */
export const extractDocument = async (
  bytes: Uint8Array,
  options: ExtractOptions & ParallelOptions = {},
): Promise<ExtractionResult> => {
  const started = Date.now();
  const workers = options.workers === 'auto' ? defaultWorkerCount() : (options.workers ?? 1);
  let batch: PageBatch;
  if (workers > 1) {
    const limits = resolveLimits(options.limits);
    batch = await extractPagesInWorkers(bytes, options.pages, {
      workers,
      batchSize: options.batchSize ?? 16,
      limits,
      ocr: options.ocr ?? 'auto',
      maxWorkerHeapMb: options.maxWorkerHeapMb ?? 1024,
    });
  } else {
    batch = await extractPages(bytes, options);
  }
  return assembleDocument(batch.pages, {
    pageCount: batch.pageCount,
    fileName: options.fileName ?? null,
    ...(options.classification ? { classification: options.classification } : {}),
    elapsedMs: Date.now() - started,
  });
};
