/**
 * OCR with tesseract.js and the traineddata of the @tesseract.js-data/eng package (nothing is downloaded).
 *
 * OCR is slow, so callers restrict it: the title block of a sheet first (cell by cell when its ruling
 * lines are known), the full page only when asked. Ruling lines are painted out before recognition (table
 * borders make tesseract drop whole cells). Rotated text (vertical title strips) is read by turning the
 * crop by 90 degrees. Words come back in display coordinates with source `ocr` and their confidence.
 */
import { createRequire } from 'node:module';
import { type Canvas, createCanvas } from '@napi-rs/canvas';
import type { Turn } from '../drawings/reading-frame.ts';
import { ExtractionError } from '../errors.ts';
import { type Box, contains, type TextDirection, type Word } from '../geometry.ts';
import type { ExtractionLimits } from '../limits.ts';
import type { PageGeometry, PdfJsPage } from './pdf.ts';
import type { PdfiumPage } from './pdfium.ts';
import { cropCanvas, type RenderedRegion, renderPdfiumRegion, renderRegion } from './render.ts';
import type { Ruling } from './rulings.ts';

export interface OcrRequest {
  /** pdf.js's page (parsed on first call) for the renders still drawn by pdf.js (title-block reads). */
  pdfjsPage: () => Promise<PdfJsPage>;
  /**
   * The frame every box of the request is in: the displayed page's geometry, or that of the page turned by
   * `turn` (a sheet placed sideways on the page, read upright: reading-frame.ts). Renders are drawn in it.
   */
  geometry: PageGeometry;
  /** Clockwise quarter turn of `geometry` against the displayed page (default 0). */
  turn?: Turn;
  limits: ExtractionLimits;
  /** Short ruling lines (cell borders) of the page, read on demand for the sheet-number cell pass. */
  cellRulings?: () => Promise<Ruling[]>;
  /**
   * Renders already made for this page's OCR. Rendering walks the page's whole operator list whatever the
   * area, so a later read inside an earlier render is cut from it instead of rendered again.
   */
  renders?: Array<{ dpi: number; rendered: RenderedRegion }>;
  /** Resolution of title-block reads (default 300); higher for drawings printed small (on letter pages). */
  dpi?: number;
  /** When the page's time runs out (ms since the epoch): the drawing area's read starts no tile close to it. */
  deadline?: number;
  /**
   * The page opened by PDFium, for reads that render large areas (the whole drawing area): PDFium draws a page
   * of a million operators in a fraction of what pdf.js takes. Title-block reads keep pdf.js's pixels, which
   * their passes were tuned on.
   */
  pdfiumPage?: PdfiumPage;
}

export const TITLE_BLOCK_DPI = 300;

/** The resolution title-block reads of this request use. */
export const titleBlockDpi = (request: OcrRequest): number => request.dpi ?? TITLE_BLOCK_DPI;

/**
 * Renders an area of the page once for several later OCR reads inside it (see `renderForOcr`). Rendering walks
 * the page's whole operator list whatever the area, so one render of the title block replaces several.
 */
export const keepRender = async (
  request: OcrRequest,
  area: Box,
  dpi: number,
  /**
   * The parts of `area` later reads are cut from (default: all of it); nothing else is drawn, so the caller
   * drops the render from `request.renders` once those reads are done.
   */
  parts: readonly Box[] = [area],
): Promise<void> => {
  const rendered = await renderWithPdfJs(request, area, dpi, parts);
  request.renders ??= [];
  request.renders.push({ dpi, rendered });
};

/**
 * Runs `read` with `area` rendered by PDFium at `dpi` kept for it (renderForOcr cuts every read inside `area`
 * from that render: a large area of a page of a million operators in a fraction of pdf.js's time); the render
 * is dropped when `read` ends.
 */
export const withPdfiumRender = async <T>(
  request: OcrRequest,
  pdfiumPage: PdfiumPage,
  area: Box,
  dpi: number,
  read: () => Promise<T>,
): Promise<T> => {
  const kept = request.renders?.length ?? 0;
  request.renders ??= [];
  request.renders.push({
    dpi,
    rendered: renderPdfiumRegion(pdfiumPage, area, dpi, request.limits.maxCanvasPixels, request.turn),
  });
  try {
    return await read();
  } finally {
    request.renders.splice(kept);
  }
};

/**
 * The page area at `dpi` on a canvas of its own (callers draw masks on it): cut from a kept render that
 * contains it, at whole-pixel offsets so thin strokes are not resampled, else rendered.
 */
export const renderForOcr = async (request: OcrRequest, area: Box, dpi: number): Promise<RenderedRegion> => {
  const kept = request.renders?.find((render) => render.dpi === dpi && contains(render.rendered.box, area));
  return kept ? cutKeptRender(kept.rendered, area) : renderWithPdfJs(request, area, dpi, [area]);
};

/** `area` at `dpi` drawn by pdf.js in the request's frame, leaving out paths outside `parts` (title-block reads). */
const renderWithPdfJs = async (
  request: OcrRequest,
  area: Box,
  dpi: number,
  parts: readonly Box[],
): Promise<RenderedRegion> =>
  renderRegion(
    (await request.pdfjsPage()).page,
    area,
    dpi,
    request.limits.maxCanvasPixels,
    undefined,
    parts,
    request.geometry,
  );

/** The area cut from a kept render at whole-pixel offsets (thin strokes are not resampled). */
const cutKeptRender = (kept: RenderedRegion, area: Box): RenderedRegion => {
  const { canvas: source, scale, box } = kept;
  const x = Math.round((area.x0 - box.x0) * scale);
  const y = Math.round((area.y0 - box.y0) * scale);
  const width = Math.max(1, Math.min(source.width - x, Math.round((area.x1 - area.x0) * scale)));
  const height = Math.max(1, Math.min(source.height - y, Math.round((area.y1 - area.y0) * scale)));
  const canvas = cropCanvas(source, x, y, width, height);
  const x0 = box.x0 + x / scale;
  const y0 = box.y0 + y / scale;
  return { canvas, scale, box: { x0, y0, x1: x0 + width / scale, y1: y0 + height / scale } };
};

export interface OcrResult {
  words: Word[];
  meanConfidence: number;
  seconds: number;
}

type Tesseract = typeof import('tesseract.js');
type TesseractWorker = Awaited<ReturnType<Tesseract['createWorker']>>;

let workerPromise: Promise<TesseractWorker> | null = null;
/** Ends a worker left running for the next extractor once nobody has used it for a while. */
let idleTimer: NodeJS.Timeout | undefined;
const OCR_WORKER_IDLE_MS = 60_000;

const require = createRequire(import.meta.url);

let workersStarted = 0;
/** Counts terminations: a read that started on an earlier worker must not call it (see recognize). */
let workerGeneration = 0;
/** How many OCR workers this thread has started (to check that one is reused). */
export const ocrWorkersStarted = (): number => workersStarted;

const getWorker = (): Promise<TesseractWorker> => {
  clearTimeout(idleTimer);
  workerPromise ??= (async () => {
    workersStarted++;
    const tesseract = await import('tesseract.js');
    const eng = require('@tesseract.js-data/eng') as { langPath: string; gzip: boolean };
    return tesseract.createWorker('eng', tesseract.OEM.LSTM_ONLY, {
      langPath: eng.langPath,
      gzip: eng.gzip,
      cacheMethod: 'none',
      logger: () => undefined,
      errorHandler: () => undefined,
    });
  })();
  return workerPromise;
};

/** Ends the OCR worker thread (call when a batch is done; the next OCR call starts a new one). */
export const terminateOcr = async (): Promise<void> => {
  clearTimeout(idleTimer);
  workerGeneration++;
  const pending = workerPromise;
  workerPromise = null;
  if (pending) await (await pending).terminate().catch(() => undefined);
};

/**
 * Leaves the OCR worker running for the next extractor in this thread, and ends it after a minute without
 * use (its thread would otherwise keep an idle process alive).
 */
export const parkOcrWorker = (): void => {
  if (!workerPromise) return;
  clearTimeout(idleTimer);
  idleTimer = setTimeout(() => void terminateOcr(), OCR_WORKER_IDLE_MS);
  idleTimer.unref();
};

interface PixelWord {
  text: string;
  confidence: number;
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/**
 * The canvas as a binary PPM (P6: RGB, 8 bits a channel), which leptonica reads as it reads the PNG of the same
 * pixels (the canvases are opaque: alpha is 255 throughout), without the zlib compression and decompression of a
 * PNG on either side. Recognition is the same to the word, confidence and box (every OCR image of 2977J p6-15).
 */
const portablePixmap = (canvas: Canvas): Buffer => {
  const { width, height } = canvas;
  const rgba = canvas.getContext('2d').getImageData(0, 0, width, height).data;
  const header = `P6\n${width} ${height}\n255\n`;
  const out = Buffer.allocUnsafe(header.length + width * height * 3);
  let at = out.write(header, 'latin1');
  for (let from = 0; from < rgba.length; from += 4) {
    out[at++] = rgba[from] ?? 255;
    out[at++] = rgba[from + 1] ?? 255;
    out[at++] = rgba[from + 2] ?? 255;
  }
  return out;
};

/**
 * PSM 3 (automatic layout) for areas, PSM 6 (one block) for title-block cells. tesseract reads every line it read
 * unsurely a second time from an inverted image (light lettering on a dark ground: a banner, a sheet number in a
 * black box). `retryInverted: false` is for second readings of what a pass with the retry read already (a block's
 * cells after the pass over the whole block): there the retry only doubled the cost of the lines that are no
 * lettering (seals, logos).
 */
export const recognize = async (
  canvas: Canvas,
  dpi: number,
  psm: '3' | '6',
  timeoutMs: number,
  retryInverted = true,
  /** Words read less surely are dropped (see wordsOfTsv). */
  minConfidence = MIN_WORD_CONFIDENCE,
): Promise<PixelWord[]> => {
  const image = portablePixmap(canvas);
  const generation = workerGeneration;
  const worker = await getWorker();
  // A call to an ended worker rejects a promise tesseract.js never handles (the process would end): a read
  // that outlived its page's time and its batch (terminateOcr) stops here instead.
  const stillRunning = (): void => {
    if (generation !== workerGeneration)
      throw new ExtractionError('page_timeout', 'OCR was stopped: its page or batch ended first.');
  };
  let timer: NodeJS.Timeout | undefined;
  const result = await Promise.race([
    (async () => {
      stillRunning();
      await worker.setParameters({
        // tesseract's own diagnostics ("Image too small to scale", ...) would go to stdout.
        debug_file: '/dev/null',
        tessedit_pageseg_mode: psm as never,
        user_defined_dpi: String(Math.round(dpi)),
        tessedit_do_invert: retryInverted ? '1' : '0',
      });
      stillRunning();
      return worker.recognize(image, {}, { tsv: true, text: false });
    })(),
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        // A stuck recognition cannot be cancelled: drop this worker so the next call starts a fresh one.
        void terminateOcr();
        reject(new ExtractionError('page_timeout', `OCR took more than ${timeoutMs} ms.`));
      }, timeoutMs);
    }),
  ]).finally(() => clearTimeout(timer));
  return wordsOfTsv(result.data.tsv ?? '', minConfidence);
};

/** The columns of tesseract's TSV rows (level, page, block, paragraph, line, word, box, confidence, text). */
const TSV = { level: 0, left: 6, top: 7, width: 8, height: 9, confidence: 10, text: 11 } as const;
const TSV_WORD_LEVEL = '5';
/** A word read less surely than this is most often linework or a smudge read as letters. */
const MIN_WORD_CONFIDENCE = 20;
const TSV_LINE_LEVEL = '4';

/**
 * The words of tesseract's TSV output (one row a word, with its box and confidence): the same words, boxes
 * and confidences as its JSON block tree (1,413 words of 2977J and 1243I pages alike), which also carries
 * every symbol and its choices, built, parsed and copied between threads for nothing.
 */
export const wordsOfTsv = (tsv: string, minConfidence = MIN_WORD_CONFIDENCE): PixelWord[] => {
  const out: PixelWord[] = [];
  let line: { y0: number; y1: number } | null = null;
  for (const row of tsv.split('\n')) {
    const cells = row.split('\t');
    if (cells.length <= TSV.text) continue;
    const y0 = Number(cells[TSV.top]);
    const y1 = y0 + Number(cells[TSV.height]);
    if (cells[TSV.level] === TSV_LINE_LEVEL) line = { y0, y1 };
    if (cells[TSV.level] !== TSV_WORD_LEVEL) continue;
    const text = cells.slice(TSV.text).join('\t').trim();
    // Whole numbers, as tesseract's JSON gives them (truncated).
    const confidence = Math.trunc(Number(cells[TSV.confidence]));
    if (!text || !(confidence >= minConfidence)) continue;
    const x0 = Number(cells[TSV.left]);
    // A word of punctuation alone (a dash between words, an inch mark) stands as tall as its line: its own box is
    // a sliver at mid-height or at the top, and would not be read as part of the line it is printed in.
    const mark = line !== null && !/[\p{L}\p{N}]/u.test(text);
    out.push({
      text,
      confidence,
      x0,
      y0: mark && line ? line.y0 : y0,
      x1: x0 + Number(cells[TSV.width]),
      y1: mark && line ? line.y1 : y1,
    });
  }
  return out;
};

/** Paints ruling lines white. */
export const maskRulings = (canvas: Canvas, rulings: readonly Ruling[], area: Box, scale: number): void => {
  if (rulings.length === 0) return;
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = '#ffffff';
  const half = Math.max(2, Math.round(scale * 1.2));
  for (const ruling of rulings) {
    if (ruling.axis === 'h') {
      if (ruling.at < area.y0 || ruling.at > area.y1) continue;
      ctx.fillRect(
        (ruling.from - area.x0) * scale - 1,
        (ruling.at - area.y0) * scale - half,
        (ruling.to - ruling.from) * scale + 2,
        2 * half,
      );
    } else {
      if (ruling.at < area.x0 || ruling.at > area.x1) continue;
      ctx.fillRect(
        (ruling.at - area.x0) * scale - half,
        (ruling.from - area.y0) * scale - 1,
        2 * half,
        (ruling.to - ruling.from) * scale + 2,
      );
    }
  }
};

/** Turns a canvas by quarter turns clockwise (1) or counter-clockwise (3). */
const rotateCanvas = (source: Canvas, quarterTurns: 1 | 3): Canvas => {
  const out = createCanvas(source.height, source.width);
  const ctx = out.getContext('2d');
  if (quarterTurns === 1) {
    ctx.translate(source.height, 0);
    ctx.rotate(Math.PI / 2);
  } else {
    ctx.translate(0, source.width);
    ctx.rotate(-Math.PI / 2);
  }
  ctx.drawImage(source, 0, 0);
  return out;
};

/**
 * A word of three characters or more is longer along its reading direction than across it. An upright word
 * taller than wide was read across vertical lettering, in neither of its directions: it is dropped. A turned
 * pass reads upright lettering too (a box wider than tall); such a word keeps its direction, and its size is
 * its lettering's height, not its length.
 */
const MIN_CHARACTERS_FOR_SHAPE = 3;
const MIN_ALONG_TO_ACROSS = 0.8;

export const toWords = (
  pixels: readonly PixelWord[],
  map: (pixelWord: PixelWord) => Box,
  dir: TextDirection,
): Word[] =>
  pixels.flatMap((pixelWord) => {
    const box = map(pixelWord);
    const width = box.x1 - box.x0;
    const height = box.y1 - box.y0;
    const shaped = pixelWord.text.length >= MIN_CHARACTERS_FOR_SHAPE;
    if (shaped && dir === 0 && width < MIN_ALONG_TO_ACROSS * height) return [];
    const size = shaped ? Math.min(width, height) : dir === 0 ? height : width;
    return [
      {
        text: pixelWord.text,
        ...box,
        size,
        dir,
        font: 'ocr',
        source: 'ocr' as const,
        confidence: Math.round(pixelWord.confidence),
      },
    ];
  });

export const summarize = (words: Word[], started: number): OcrResult => ({
  words,
  meanConfidence: words.length
    ? Math.round(words.reduce((sum, word) => sum + (word.confidence ?? 0), 0) / words.length)
    : 0,
  seconds: (Date.now() - started) / 1000,
});

/**
 * Passes over a whole title block or band (PSM 3) read a copy reduced by this factor from titleBlockDpi: their
 * cost grows with the pixels, and what they are for (titles, field values) is the block's larger lettering,
 * still 20 px high and more at 200 dpi; the small number cells are read from the full render.
 */
export const WHOLE_PASS_REDUCTION = 2 / 3;

/** A copy of a canvas scaled by `factor` (the canvas itself when the factor is 1). */
export const scaledCanvas = (source: Canvas, factor: number): Canvas => {
  if (factor >= 1) return source;
  const out = createCanvas(
    Math.max(1, Math.round(source.width * factor)),
    Math.max(1, Math.round(source.height * factor)),
  );
  out.getContext('2d').drawImage(source, 0, 0, out.width, out.height);
  return out;
};

/**
 * OCRs one area of the page. `turn` rotates the rendered crop before OCR: 0 reads horizontal text,
 * 90 reads text running bottom-to-top (display direction 270), 270 reads top-to-bottom (direction 90).
 */
export const ocrArea = async (
  request: OcrRequest,
  area: Box,
  dpi: number,
  turn: 0 | 90 | 270,
  mask: readonly Ruling[] = [],
  /** Reads a copy scaled by this factor (the render is kept at `dpi` for the cells cut from it). */
  reduction = 1,
  /** Page segmentation: automatic layout (3), or one block of text (6) for a column of a table. */
  psm: '3' | '6' = '3',
): Promise<OcrResult> => {
  const started = Date.now();
  const { limits } = request;
  const rendered = await renderForOcr(request, area, dpi);
  const origin = rendered.box;
  maskRulings(rendered.canvas, mask, origin, rendered.scale);
  const reduced = scaledCanvas(rendered.canvas, reduction);
  const unturnedWidth = reduced.width;
  const unturnedHeight = reduced.height;
  const canvas = turn === 90 ? rotateCanvas(reduced, 1) : turn === 270 ? rotateCanvas(reduced, 3) : reduced;
  const pixelsPerPoint = (rendered.scale * reduced.width) / rendered.canvas.width;
  const pixels = await recognize(canvas, pixelsPerPoint * 72, psm, limits.ocrPageTimeoutMs);
  const dir: TextDirection = turn === 0 ? 0 : turn === 90 ? 270 : 90;
  const words = toWords(
    pixels,
    (pixelBox) => {
      // Back from the turned image to the unturned crop. Clockwise: image (u, v) comes from (v, height - u).
      const [x0, y0, x1, y1] =
        turn === 90
          ? [pixelBox.y0, unturnedHeight - pixelBox.x1, pixelBox.y1, unturnedHeight - pixelBox.x0]
          : turn === 270
            ? [unturnedWidth - pixelBox.y1, pixelBox.x0, unturnedWidth - pixelBox.y0, pixelBox.x1]
            : [pixelBox.x0, pixelBox.y0, pixelBox.x1, pixelBox.y1];
      return {
        x0: origin.x0 + x0 / pixelsPerPoint,
        y0: origin.y0 + y0 / pixelsPerPoint,
        x1: origin.x0 + x1 / pixelsPerPoint,
        y1: origin.y0 + y1 / pixelsPerPoint,
      };
    },
    dir,
  );
  return summarize(words, started);
};

/** OCR of a whole page (text pages without a text layer, or when OCR is forced). */
export const ocrPage = async (request: OcrRequest, _scope: 'titleBlock' | 'page'): Promise<OcrResult> => {
  const { geometry } = request;
  const dpi = Math.max(geometry.width, geometry.height) > 1100 ? 150 : 200;
  return ocrArea(request, { x0: 0, y0: 0, x1: geometry.width, y1: geometry.height }, dpi, 0);
};
