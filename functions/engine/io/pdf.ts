/**
 * Loading PDFs with pdf.js in Node: canvas globals, the canvas factory, limits, and error mapping.
 */
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import path from 'node:path';
import { inflateSync } from 'node:zlib';
import * as napiCanvas from '@napi-rs/canvas';
import { ExtractionError } from '../errors.ts';
import { DEFAULT_LIMITS, type ExtractionLimits } from '../limits.ts';
import { imagePixelLimit } from './bilevel-images.ts';
import { installSyncDecompression } from './decompression.ts';
import { sameThreadWorker } from './pdf-port.ts';
import { PdfiumDocument } from './pdfium.ts';
import { tuneV8ForPdfJs } from './v8-tuning.ts';

// pdf.js renders with Path2D/DOMMatrix/ImageData; they must be globals before pdf.js is imported, and must
// come from the same @napi-rs/canvas copy that creates our canvases.
const installCanvasGlobals = (): void => {
  const global = globalThis as Record<string, unknown>;
  global.Path2D ??= napiCanvas.Path2D;
  global.DOMMatrix ??= napiCanvas.DOMMatrix;
  global.ImageData ??= napiCanvas.ImageData;
};
installCanvasGlobals();
// Before pdf.js runs: its Flate streams go through this global (see decompression.ts).
installSyncDecompression(DEFAULT_LIMITS.maxInflatedBytesPerStream);
tuneV8ForPdfJs();

export type PdfJs = typeof import('pdfjs-dist/legacy/build/pdf.mjs');
export type PdfDocument = Awaited<ReturnType<PdfJs['getDocument']>['promise']>;
export type PdfPage = Awaited<ReturnType<PdfDocument['getPage']>>;
/** A page of pdf.js's parse, with the library that parsed it (its operator codes). */
export interface PdfJsPage {
  page: PdfPage;
  pdfjs: PdfJs;
}

let pdfjsPromise: Promise<PdfJs> | undefined;
export const loadPdfJs = (): Promise<PdfJs> => {
  pdfjsPromise ??= import('pdfjs-dist/legacy/build/pdf.mjs');
  return pdfjsPromise;
};

const require = createRequire(import.meta.url);
const pdfjsRoot = path.dirname(require.resolve('pdfjs-dist/package.json'));
const standardFontDataUrl = `${path.join(pdfjsRoot, 'standard_fonts')}/`;
const cMapUrl = `${path.join(pdfjsRoot, 'cmaps')}/`;
/**
 * pdf.js's WebAssembly decoders: OpenJPEG, without which it cannot decode a JPEG 2000 (JPX) image at all
 * (it drew none, silently: a scan stored as JPX rendered blank and OCR read nothing), and its JBIG2 decoder,
 * which replaces a slower one in JavaScript.
 */
const wasmUrl = `${path.join(pdfjsRoot, 'wasm')}/`;

interface CanvasAndContext {
  canvas: napiCanvas.Canvas | null;
  context: napiCanvas.SKRSContext2D | null;
}

/** pdf.js creates scratch canvases (masks, patterns) through this; same canvas library as our own canvases. */
class NapiCanvasFactory {
  create(width: number, height: number): CanvasAndContext {
    if (width <= 0 || height <= 0) throw new Error('Invalid canvas size');
    const canvas = napiCanvas.createCanvas(Math.ceil(width), Math.ceil(height));
    return { canvas, context: canvas.getContext('2d') };
  }
  reset(target: CanvasAndContext, width: number, height: number): void {
    if (!target.canvas) throw new Error('Canvas is not specified');
    target.canvas.width = Math.ceil(width);
    target.canvas.height = Math.ceil(height);
  }
  destroy(target: CanvasAndContext): void {
    if (target.canvas) {
      target.canvas.width = 0;
      target.canvas.height = 0;
    }
    target.canvas = null;
    target.context = null;
  }
}

/**
 * Cheap checks before pdf.js sees the bytes: size, header, and a decompression-bomb guard that inflates
 * (with a hard output cap) only the Flate streams that could exceed the budget. zlib cannot expand more
 * than ~1032:1, so a stream whose compressed size times 1032 is under the cap needs no check.
 */
export const preflight = (
  bytes: Uint8Array,
  limits: ExtractionLimits,
  digest: string = contentDigest(bytes),
): void => {
  // The same bytes under the same limits pass again: a file's page batches each open it in the same process.
  const key = `${digest} ${limits.maxFileBytes} ${limits.maxInflatedBytes} ${limits.maxInflatedBytesPerStream}`;
  if (passedPreflight.includes(key)) return;
  checkBytes(bytes, limits);
  passedPreflight.unshift(key);
  passedPreflight.length = Math.min(passedPreflight.length, PASSED_PREFLIGHT_KEPT);
};

/** The SHA-256 of a file's bytes, hex (about 20 ms for 10 MB): what the caches of opened files key on. */
export const contentDigest = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

/** The last few files (content digest and limits) that passed the checks, newest first. */
const passedPreflight: string[] = [];
const PASSED_PREFLIGHT_KEPT = 8;

const checkBytes = (bytes: Uint8Array, limits: ExtractionLimits): void => {
  if (bytes.byteLength === 0) throw new ExtractionError('pdf_empty', 'The file is empty (0 bytes).');
  if (bytes.byteLength > limits.maxFileBytes) {
    throw new ExtractionError(
      'pdf_too_large',
      `The file is ${bytes.byteLength} bytes; the limit is ${limits.maxFileBytes}.`,
    );
  }
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.byteLength, 1024)).toString(
    'latin1',
  );
  if (!head.includes('%PDF-'))
    throw new ExtractionError('pdf_malformed', 'The file does not start with a PDF header.');
  checkInflatedSize(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), limits);
};

const MAX_ZLIB_RATIO = 1032;

/** Byte spans of the data of every Flate-encoded stream (a lexical scan, good enough for a size guard). */
const flateStreamSpans = (buf: Buffer): Array<[number, number]> => {
  const spans: Array<[number, number]> = [];
  let pos = 0;
  for (;;) {
    const streamAt = buf.indexOf('stream', pos, 'latin1');
    if (streamAt < 0) break;
    pos = streamAt + 6;
    // `endstream` also contains `stream`; only the opening keyword followed by an end of line starts data.
    if (
      streamAt >= 3 &&
      buf[streamAt - 3] === 0x65 &&
      buf[streamAt - 2] === 0x6e &&
      buf[streamAt - 1] === 0x64
    )
      continue;
    let dataStart = pos;
    if (buf[dataStart] === 0x0d) dataStart++;
    if (buf[dataStart] !== 0x0a && dataStart === pos) continue;
    if (buf[dataStart] === 0x0a) dataStart++;
    const end = buf.indexOf('endstream', dataStart, 'latin1');
    const dataEnd = end < 0 ? buf.length : end;
    pos = dataEnd;
    // The stream's dictionary lies between its `obj` keyword and `stream`; no strings are built here.
    const dictStart = Math.max(buf.lastIndexOf('obj', streamAt, 'latin1'), streamAt - 4096);
    if (buf.lastIndexOf('FlateDecode', streamAt, 'latin1') > dictStart) spans.push([dataStart, dataEnd]);
  }
  return spans;
};

const checkInflatedSize = (buf: Buffer, limits: ExtractionLimits): void => {
  const spans = flateStreamSpans(buf);
  const bound = (span: [number, number]): number => (span[1] - span[0]) * MAX_ZLIB_RATIO;
  const upperBoundTotal = spans.reduce((sum, span) => sum + bound(span), 0);
  const mustMeasureAll = upperBoundTotal > limits.maxInflatedBytes;
  let total = 0;
  for (const span of spans) {
    if (!mustMeasureAll && bound(span) <= limits.maxInflatedBytesPerStream) continue;
    const size = inflatedSize(buf.subarray(span[0], span[1]), limits.maxInflatedBytesPerStream);
    if (size > limits.maxInflatedBytesPerStream) {
      throw new ExtractionError(
        'resource_limit',
        `A compressed stream inflates to more than ${limits.maxInflatedBytesPerStream} bytes (decompression bomb guard).`,
      );
    }
    total += size;
    if (total > limits.maxInflatedBytes) {
      throw new ExtractionError(
        'resource_limit',
        `Compressed streams inflate to more than ${limits.maxInflatedBytes} bytes in total (decompression bomb guard).`,
      );
    }
  }
};

/** Inflated size of a zlib stream, stopping just past `cap`; corrupt streams count what inflated before the error. */
const inflatedSize = (data: Buffer, cap: number): number => {
  try {
    return inflateSync(data, { maxOutputLength: Math.max(1, cap + 1), finishFlush: 2 /* Z_SYNC_FLUSH */ })
      .length;
  } catch (error) {
    if (error instanceof RangeError || (error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE')
      return cap + 1;
    return 0;
  }
};

/** pdf.js logs errors only (its warnings name fonts and images it recovers from itself). */
const PDFJS_VERBOSITY = 0;

/** pdf.js's parse of a document: what still reads pages through pdf.js (paths of OCR'd sheets, OCR renders). */
export interface PdfJsDocument {
  doc: PdfDocument;
  pdfjs: PdfJs;
}

export interface OpenedPdf {
  /** The file in PDFium: its checks, page count, text, page objects and renders (see io/). */
  pdfium: PdfiumDocument;
  pageCount: number;
  /**
   * The same file parsed by pdf.js, on first call only: a text page never needs it (PDFium reads it whole),
   * so a specification book is not parsed twice. A failure is an ExtractionError with a code.
   */
  pdfjsDocument(): Promise<PdfJsDocument>;
  /** Frees PDFium's document and pdf.js's when it was parsed; once. */
  close(): Promise<void>;
}

/**
 * Opens the bytes in PDFium (the byte checks first: `preflight: false` skips them when the caller has already
 * run them on the same bytes; `digest`, the bytes' `contentDigest` when the caller has it already). Every
 * failure becomes an ExtractionError with a code; pdf.js parses the file only when a page asks for it.
 */
export const openPdf = async (
  bytes: Uint8Array,
  limits: ExtractionLimits,
  options: { preflight?: boolean; digest?: string } = {},
): Promise<OpenedPdf> => {
  if (options.preflight !== false) preflight(bytes, limits, options.digest);
  const pdfium = await openCheckedPdfium(bytes, limits);
  let parsed: Promise<{ document: PdfJsDocument; destroy: () => Promise<void> }> | null = null;
  let closed = false;
  return {
    pdfium,
    pageCount: pdfium.pageCount,
    pdfjsDocument: async () => {
      if (closed) throw new Error('The document is closed.');
      parsed ??= parseWithPdfJs(bytes, limits);
      return (await parsed).document;
    },
    close: async () => {
      if (closed) return;
      closed = true;
      pdfium.close();
      if (parsed) await parsed.then((opened) => opened.destroy()).catch(() => undefined);
    },
  };
};

/** The bytes parsed by pdf.js in this thread (its worker is a port, not a thread: see pdf-port.ts). */
const parseWithPdfJs = async (
  bytes: Uint8Array,
  limits: ExtractionLimits,
): Promise<{ document: PdfJsDocument; destroy: () => Promise<void> }> => {
  const pdfjs = await loadPdfJs();
  // pdf.js transfers (detaches) the buffer it gets: give it a copy so the caller's bytes stay usable.
  const data = new Uint8Array(bytes);
  const worker = await sameThreadWorker(pdfjs, PDFJS_VERBOSITY);
  const task = pdfjs.getDocument({
    data,
    worker,
    isEvalSupported: false,
    disableFontFace: true,
    useSystemFonts: false,
    standardFontDataUrl,
    cMapUrl,
    cMapPacked: true,
    wasmUrl,
    maxImageSize: imagePixelLimit(bytes, limits),
    canvasMaxAreaInBytes: limits.maxCanvasPixels * 4,
    isOffscreenCanvasSupported: false,
    CanvasFactory: NapiCanvasFactory,
    verbosity: PDFJS_VERBOSITY,
    stopAtErrors: false,
  });
  try {
    const doc = await withTimeout(
      task.promise,
      limits.pageTimeoutMs,
      () => new ExtractionError('file_timeout', `Opening the PDF took more than ${limits.pageTimeoutMs} ms.`),
    );
    // pdf.js ends only the workers it made: this document's own ends with it.
    return {
      document: { doc, pdfjs },
      destroy: () => doc.destroy().finally(() => worker.destroy()),
    };
  } catch (error) {
    // A failed or timed-out opening ends the loading task and then this document's worker, once each.
    await task.destroy().catch(() => undefined);
    worker.destroy();
    throw mapPdfJsError(error);
  }
};

/** PDFium's document of checked bytes, within the page-count limits (closed when it is not). */
const openCheckedPdfium = async (bytes: Uint8Array, limits: ExtractionLimits): Promise<PdfiumDocument> => {
  const pdfium = await PdfiumDocument.open(bytes);
  const { pageCount } = pdfium;
  if (pageCount < 1 || pageCount > limits.maxPages) {
    pdfium.close();
    throw pageCount < 1
      ? new ExtractionError('pdf_empty', 'The PDF has no pages.')
      : new ExtractionError(
          'pdf_too_many_pages',
          `The PDF has ${pageCount} pages; the limit is ${limits.maxPages}.`,
        );
  }
  return pdfium;
};

/**
 * Opens the bytes in PDFium alone (crops and overlays need no pdf.js): the same byte checks and page-count
 * limits as `openPdf`. The caller closes the document.
 */
export const openPdfiumFile = async (
  bytes: Uint8Array,
  limits: ExtractionLimits,
): Promise<PdfiumDocument> => {
  preflight(bytes, limits);
  return openCheckedPdfium(bytes, limits);
};

const mapPdfJsError = (error: unknown): ExtractionError => {
  if (error instanceof ExtractionError) return error;
  const name = (error as { name?: string })?.name ?? '';
  const message = error instanceof Error ? error.message : String(error);
  if (name === 'PasswordException') {
    return new ExtractionError('pdf_encrypted', 'The PDF is encrypted with a password.', { cause: error });
  }
  if (name === 'InvalidPDFException' || name === 'FormatError' || name === 'UnknownErrorException') {
    return new ExtractionError('pdf_malformed', `The PDF cannot be parsed: ${message}`, { cause: error });
  }
  if (error instanceof RangeError || /allocation|out of memory|Array buffer/i.test(message)) {
    return new ExtractionError('resource_limit', `The PDF exceeds a resource limit: ${message}`, {
      cause: error,
    });
  }
  return new ExtractionError('pdf_malformed', `The PDF cannot be parsed: ${message}`, { cause: error });
};

export const withTimeout = <T>(promise: Promise<T>, ms: number, onTimeout: () => Error): Promise<T> => {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(onTimeout()), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
};

/** Displayed page geometry: pdf.js' viewport already applies /Rotate and the CropBox (its `view`). */
export interface PageGeometry {
  width: number;
  height: number;
  rotation: number;
  /** Maps PDF user space to display space (points, top-left origin). */
  transform: number[];
}

export const pageGeometry = (page: PdfPage): PageGeometry => {
  const viewport = page.getViewport({ scale: 1 });
  return {
    width: viewport.width,
    height: viewport.height,
    rotation: page.rotate,
    transform: viewport.transform,
  };
};

export type OperatorList = Awaited<ReturnType<PdfPage['getOperatorList']>>;

/**
 * The operator list pdf.js draws the page with. pdf.js keeps `getOperatorList`'s list apart from the one its
 * renders use (another intent), so a page read for its lines and then rendered was parsed twice (a second of
 * CPU on a vector sheet of 450,000 operators). The engine reads the renders' list instead: a render that draws
 * nothing loads it (once; later renders of the page, and calls here, reuse it until `page.cleanup()`).
 * Drawing a path replaces its data in the list with a Path2D: the path data are kept aside before any render
 * draws (see pathDataOf).
 */
export const drawingOperatorList = async (page: PdfPage): Promise<OperatorList> => {
  const canvas = napiCanvas.createCanvas(1, 1);
  const params = {
    canvas,
    canvasContext: canvas.getContext('2d'),
    viewport: page.getViewport({ scale: 1 }),
    operationsFilter: () => false,
  };
  // pdf.js types expect DOM canvases; @napi-rs/canvas implements the same 2D API.
  const task = page.render(params as unknown as Parameters<PdfPage['render']>[0]);
  await task.promise;
  const list =
    (task as unknown as { _internalRenderTask?: { operatorList?: OperatorList } })._internalRenderTask
      ?.operatorList ?? (await page.getOperatorList({ intent: 'display' }));
  if (!pathData.has(list)) {
    const { OPS } = await loadPdfJs();
    const kept: unknown[] = [];
    list.fnArray.forEach((operator, index) => {
      if (operator === OPS.constructPath)
        kept[index] = (list.argsArray[index] as unknown[][] | null)?.[1]?.[0];
    });
    pathData.set(list, kept);
  }
  return list;
};

/** Path data of each list's constructPath operators, as parsed (before a render replaced them). */
const pathData = new WeakMap<OperatorList, unknown[]>();

/** The drawing data of the path at `index` of a list, also after a render drew it. */
export const pathDataOf = (list: OperatorList, index: number): unknown =>
  pathData.get(list)?.[index] ?? (list.argsArray[index] as unknown[][] | null)?.[1]?.[0];
