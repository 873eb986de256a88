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
import { ExtractionError } from './errors.ts';
import { type Box, contains, type TextDirection, type Word } from './geometry.ts';
import type { ExtractionLimits } from './limits.ts';
import type { PageGeometry, PdfPage } from './pdf.ts';
import { type RenderedRegion, renderRegion } from './render.ts';
import type { Ruling } from './rulings.ts';
import { parseSheetNumber } from './sheet-number.ts';

export interface OcrRequest {
  page: PdfPage;
  geometry: PageGeometry;
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
}

export const TITLE_BLOCK_DPI = 300;

/** The resolution title-block reads of this request use. */
export const titleBlockDpi = (request: OcrRequest): number => request.dpi ?? TITLE_BLOCK_DPI;

/**
 * Renders an area of the page once for several later OCR reads inside it (see `renderForOcr`). Rendering walks
 * the page's whole operator list whatever the area, so one render of the title block replaces several.
 */
export const keepRender = async (request: OcrRequest, area: Box, dpi: number): Promise<void> => {
  const rendered = await renderRegion(request.page, area, dpi, request.limits.maxCanvasPixels);
  request.renders ??= [];
  request.renders.push({ dpi, rendered });
};

/**
 * The page area at `dpi` on a canvas of its own (callers draw masks on it): cut from a kept render that
 * contains it, at whole-pixel offsets so thin strokes are not resampled, else rendered.
 */
const renderForOcr = async (request: OcrRequest, area: Box, dpi: number): Promise<RenderedRegion> => {
  const kept = request.renders?.find((r) => r.dpi === dpi && contains(r.rendered.box, area));
  return kept
    ? cutKeptRender(kept.rendered, area)
    : renderRegion(request.page, area, dpi, request.limits.maxCanvasPixels);
};

/** The area cut from a kept render at whole-pixel offsets (thin strokes are not resampled). */
const cutKeptRender = (kept: RenderedRegion, area: Box): RenderedRegion => {
  const { canvas: source, scale, box } = kept;
  const x = Math.round((area.x0 - box.x0) * scale);
  const y = Math.round((area.y0 - box.y0) * scale);
  const width = Math.max(1, Math.min(source.width - x, Math.round((area.x1 - area.x0) * scale)));
  const height = Math.max(1, Math.min(source.height - y, Math.round((area.y1 - area.y0) * scale)));
  const canvas = createCanvas(width, height);
  canvas.getContext('2d').drawImage(source, x, y, width, height, 0, 0, width, height);
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

const require = createRequire(import.meta.url);

const getWorker = (): Promise<TesseractWorker> => {
  workerPromise ??= (async () => {
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
  const pending = workerPromise;
  workerPromise = null;
  if (pending) await (await pending).terminate().catch(() => undefined);
};

interface PixelWord {
  text: string;
  confidence: number;
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** PSM 3 (automatic layout) for areas, PSM 6 (one block) for title-block cells. */
const recognize = async (
  canvas: Canvas,
  dpi: number,
  psm: '3' | '6',
  timeoutMs: number,
): Promise<PixelWord[]> => {
  const png = await canvas.encode('png');
  const worker = await getWorker();
  let timer: NodeJS.Timeout | undefined;
  const result = await Promise.race([
    (async () => {
      await worker.setParameters({
        // tesseract's own diagnostics ("Image too small to scale", ...) would go to stdout.
        debug_file: '/dev/null',
        tessedit_pageseg_mode: psm as never,
        user_defined_dpi: String(Math.round(dpi)),
      });
      return worker.recognize(png, {}, { blocks: true, text: false });
    })(),
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        // A stuck recognition cannot be cancelled: drop this worker so the next call starts a fresh one.
        void terminateOcr();
        reject(new ExtractionError('page_timeout', `OCR took more than ${timeoutMs} ms.`));
      }, timeoutMs);
    }),
  ]).finally(() => clearTimeout(timer));
  const out: PixelWord[] = [];
  for (const block of result.data.blocks ?? []) {
    for (const paragraph of block.paragraphs) {
      for (const line of paragraph.lines) {
        for (const word of line.words) {
          const text = word.text.trim();
          if (!text || word.confidence < 20) continue;
          out.push({ text, confidence: word.confidence, ...word.bbox });
        }
      }
    }
  }
  return out;
};

/** Paints ruling lines white. */
const maskRulings = (canvas: Canvas, rulings: readonly Ruling[], area: Box, scale: number): void => {
  if (rulings.length === 0) return;
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = '#ffffff';
  const half = Math.max(2, Math.round(scale * 1.2));
  for (const r of rulings) {
    if (r.axis === 'h') {
      if (r.at < area.y0 || r.at > area.y1) continue;
      ctx.fillRect(
        (r.from - area.x0) * scale - 1,
        (r.at - area.y0) * scale - half,
        (r.to - r.from) * scale + 2,
        2 * half,
      );
    } else {
      if (r.at < area.x0 || r.at > area.x1) continue;
      ctx.fillRect(
        (r.at - area.x0) * scale - half,
        (r.from - area.y0) * scale - 1,
        2 * half,
        (r.to - r.from) * scale + 2,
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

const toWords = (pixels: readonly PixelWord[], map: (w: PixelWord) => Box, dir: TextDirection): Word[] =>
  pixels.map((p) => {
    const box = map(p);
    const size = dir === 0 ? box.y1 - box.y0 : box.x1 - box.x0;
    return {
      text: p.text,
      ...box,
      size,
      dir,
      font: 'ocr',
      source: 'ocr',
      confidence: Math.round(p.confidence),
    };
  });

const summarize = (words: Word[], started: number): OcrResult => ({
  words,
  meanConfidence: words.length
    ? Math.round(words.reduce((s, w) => s + (w.confidence ?? 0), 0) / words.length)
    : 0,
  seconds: (Date.now() - started) / 1000,
});

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
): Promise<OcrResult> => {
  const started = Date.now();
  const { limits } = request;
  const rendered = await renderForOcr(request, area, dpi);
  const origin = rendered.box;
  maskRulings(rendered.canvas, mask, origin, rendered.scale);
  const reduced = scaledCanvas(rendered.canvas, reduction);
  const W = reduced.width;
  const H = reduced.height;
  const canvas = turn === 90 ? rotateCanvas(reduced, 1) : turn === 270 ? rotateCanvas(reduced, 3) : reduced;
  const s = (rendered.scale * reduced.width) / rendered.canvas.width;
  const pixels = await recognize(canvas, s * 72, '3', limits.ocrPageTimeoutMs);
  const dir: TextDirection = turn === 0 ? 0 : turn === 90 ? 270 : 90;
  const words = toWords(
    pixels,
    (b) => {
      // Back from the turned image to the unturned crop. Clockwise: image (u, v) comes from (v, H - u).
      const [x0, y0, x1, y1] =
        turn === 90
          ? [b.y0, H - b.x1, b.y1, H - b.x0]
          : turn === 270
            ? [W - b.y1, b.x0, W - b.y0, b.x1]
            : [b.x0, b.y0, b.x1, b.y1];
      return {
        x0: origin.x0 + x0 / s,
        y0: origin.y0 + y0 / s,
        x1: origin.x0 + x1 / s,
        y1: origin.y0 + y1 / s,
      };
    },
    dir,
  );
  return summarize(words, started);
};

/**
 * Cells of a ruled box: columns split by vertical rulings spanning most of its height, then each column
 * split by horizontal rulings spanning most of the column's width.
 */
export const cellsOf = (area: Box, rulings: readonly Ruling[]): Box[] => {
  const h = area.y1 - area.y0;
  const inside = (r: Ruling): boolean =>
    r.axis === 'v' ? r.at > area.x0 + 2 && r.at < area.x1 - 2 : r.at > area.y0 + 2 && r.at < area.y1 - 2;
  const xs = [
    area.x0,
    ...rulings
      .filter(
        (r) => r.axis === 'v' && inside(r) && Math.min(r.to, area.y1) - Math.max(r.from, area.y0) >= 0.6 * h,
      )
      .map((r) => r.at),
    area.x1,
  ].sort((a, b) => a - b);
  const cells: Box[] = [];
  for (let i = 0; i + 1 < xs.length; i++) {
    const x0 = xs[i];
    const x1 = xs[i + 1];
    if (x0 === undefined || x1 === undefined) continue;
    if (x1 - x0 < 8) continue;
    const ys = [
      area.y0,
      ...rulings
        .filter(
          (r) => r.axis === 'h' && inside(r) && Math.min(r.to, x1) - Math.max(r.from, x0) >= 0.7 * (x1 - x0),
        )
        .map((r) => r.at),
      area.y1,
    ].sort((a, b) => a - b);
    for (let j = 0; j + 1 < ys.length; j++) {
      const y0 = ys[j];
      const y1 = ys[j + 1];
      if (y0 === undefined || y1 === undefined) continue;
      if (y1 - y0 >= 6) cells.push({ x0, y0, x1, y1 });
    }
  }
  return cells;
};

const CELL_TARGET_HEIGHT_PX = 120;
/**
 * Passes over a whole title block or band (PSM 3) read a copy reduced by this factor from titleBlockDpi: their
 * cost grows with the pixels, and what they are for (titles, field values) is the block's larger lettering,
 * still 20 px high and more at 200 dpi; the small number cells are read from the full render.
 */
export const WHOLE_PASS_REDUCTION = 2 / 3;

/** A copy of a canvas scaled by `factor` (the canvas itself when the factor is 1). */
const scaledCanvas = (source: Canvas, factor: number): Canvas => {
  if (factor >= 1) return source;
  const out = createCanvas(
    Math.max(1, Math.round(source.width * factor)),
    Math.max(1, Math.round(source.height * factor)),
  );
  out.getContext('2d').drawImage(source, 0, 0, out.width, out.height);
  return out;
};

/**
 * OCR of a ruled title block cell by cell: rendered once (see titleBlockDpi), borders masked, each cell recognized
 * as one block at a scale that keeps its text near the size tesseract reads best.
 */
export const ocrCells = async (
  request: OcrRequest,
  area: Box,
  rulings: readonly Ruling[],
): Promise<OcrResult> => {
  const started = Date.now();
  const { limits } = request;
  const rendered = await renderForOcr(request, area, titleBlockDpi(request));
  const origin = rendered.box;
  maskRulings(rendered.canvas, rulings, origin, rendered.scale);
  const s = rendered.scale;
  const deadline = started + limits.ocrPageTimeoutMs;
  // One pass over the whole block, then cell by cell; both are kept (each misses words the other reads).
  // The whole pass reads a reduced copy (see WHOLE_PASS_REDUCTION).
  const reduced = scaledCanvas(rendered.canvas, WHOLE_PASS_REDUCTION);
  const wholeScale = (s * reduced.width) / rendered.canvas.width;
  const whole = await recognize(reduced, wholeScale * 72, '3', limits.ocrPageTimeoutMs);
  const words: Word[] = toWords(
    whole,
    (b) => ({
      x0: origin.x0 + b.x0 / wholeScale,
      y0: origin.y0 + b.y0 / wholeScale,
      x1: origin.x0 + b.x1 / wholeScale,
      y1: origin.y0 + b.y1 / wholeScale,
    }),
    0,
  );
  for (const cell of cellsOf(area, rulings)) {
    if (Date.now() > deadline) break;
    const pw = Math.round((cell.x1 - cell.x0) * s);
    const ph = Math.round((cell.y1 - cell.y0) * s);
    if (pw < 8 || ph < 8) continue;
    // Shrink tall cells (big lettering) so a line of text is at most ~CELL_TARGET_HEIGHT_PX high.
    const k = Math.min(1, CELL_TARGET_HEIGHT_PX / Math.min(ph, CELL_TARGET_HEIGHT_PX * 3));
    const source = { x: (cell.x0 - origin.x0) * s, y: (cell.y0 - origin.y0) * s, width: pw, height: ph };
    addDistinct(words, await readCellImage(rendered, source, { x: cell.x0, y: cell.y0 }, k, 10, deadline));
  }
  return summarize(words, started);
};

/**
 * The ruled cell around a point: the nearest horizontal rulings above and below that span its x, and the
 * nearest vertical rulings left and right that span the whole height between them. A horizontal border that
 * does not reach both verticals is a stroke inside the cell (outlined lettering, a dash), not a border: it is
 * skipped and the cell looked up again. Null when the point is not enclosed.
 */
export const cellAt = (x: number, y: number, rulings: readonly Ruling[]): Box | null => {
  const skipped = new Set<Ruling>();
  for (let attempt = 0; attempt < 8; attempt++) {
    let top: Ruling | null = null;
    let bottom: Ruling | null = null;
    for (const r of rulings) {
      if (r.axis !== 'h' || skipped.has(r) || r.from > x + 0.5 || r.to < x - 0.5) continue;
      if (r.at < y && (!top || r.at > top.at)) top = r;
      if (r.at > y && (!bottom || r.at < bottom.at)) bottom = r;
    }
    if (!top || !bottom) return null;
    let left: Ruling | null = null;
    let right: Ruling | null = null;
    for (const r of rulings) {
      if (r.axis !== 'v' || r.from > top.at + 2 || r.to < bottom.at - 2) continue;
      if (r.at < x && (!left || r.at > left.at)) left = r;
      if (r.at > x && (!right || r.at < right.at)) right = r;
    }
    if (!left || !right) return null;
    const spans = (h: Ruling): boolean => h.from <= left.at + 2 && h.to >= right.at - 2;
    if (spans(top) && spans(bottom)) return { x0: left.at, y0: top.at, x1: right.at, y1: bottom.at };
    if (!spans(top)) skipped.add(top);
    if (!spans(bottom)) skipped.add(bottom);
  }
  return null;
};

/**
 * OCR of a few small title-block cells (where the sheet number is printed), each on its own (titleBlockDpi) as
 * one block (PSM 6): isolated from its neighbours, large sheet-number lettering is read far more reliably
 * than in a pass over the whole block. The cells are rendered once (their common box), borders cropped off.
 */
export const ocrSmallCells = async (request: OcrRequest, cells: readonly Box[]): Promise<OcrResult> => {
  const started = Date.now();
  const words: Word[] = [];
  if (cells.length === 0) return summarize(words, started);
  const { limits } = request;
  const area = {
    x0: Math.min(...cells.map((c) => c.x0)),
    y0: Math.min(...cells.map((c) => c.y0)),
    x1: Math.max(...cells.map((c) => c.x1)),
    y1: Math.max(...cells.map((c) => c.y1)),
  };
  const rendered = await renderForOcr(request, area, titleBlockDpi(request));
  const origin = rendered.box;
  const s = rendered.scale;
  const deadline = started + limits.ocrPageTimeoutMs;
  for (const cell of cells) {
    // Crop the border lines off (1.5 pt inside), then pad with white.
    const inset = 1.5;
    const cx0 = cell.x0 + inset;
    const cy0 = cell.y0 + inset;
    const pw = Math.round((cell.x1 - cell.x0 - 2 * inset) * s);
    const ph = Math.round((cell.y1 - cell.y0 - 2 * inset) * s);
    if (pw < 8 || ph < 8) continue;
    const k = Math.min(1, (CELL_TARGET_HEIGHT_PX * 3) / ph);
    // tesseract's reading of thin stroke lettering changes with the margin around it: a second margin is
    // tried when the first reading holds no confident sheet number, and both readings are kept.
    for (const pad of [4, 30]) {
      if (Date.now() > deadline) break;
      // Whole-pixel source offsets: a fractional offset resamples (blurs) thin stroke lettering.
      const source = {
        x: Math.round((cx0 - origin.x0) * s),
        y: Math.round((cy0 - origin.y0) * s),
        width: pw,
        height: ph,
      };
      const read = await readCellImage(rendered, source, { x: cx0, y: cy0 }, k, pad, deadline);
      addDistinct(words, read);
      if (read.some((w) => (w.confidence ?? 0) >= 70 && parseSheetNumber(w.text) !== null)) break;
    }
  }
  return summarize(words, started);
};

/** Fewer dark pixels than this (a speck, a stray line end) is an empty cell; one small digit has hundreds. */
const MIN_INK_PIXELS = 20;

/** Dark pixels in RGBA data. */
const inkPixels = (rgba: Uint8ClampedArray): number => {
  let dark = 0;
  for (let at = 0; at < rgba.length; at += 4) {
    if ((rgba[at] ?? 255) + (rgba[at + 1] ?? 255) + (rgba[at + 2] ?? 255) < 480) dark++;
  }
  return dark;
};

/**
 * Reads one cell of a render as a block of text (PSM 6): the `source` pixels, scaled by `k` and padded with
 * white, with the words mapped back to page points from the cell's top-left `origin`.
 */
const readCellImage = async (
  rendered: RenderedRegion,
  source: { x: number; y: number; width: number; height: number },
  origin: { x: number; y: number },
  k: number,
  pad: number,
  deadline: number,
): Promise<Word[]> => {
  const w = Math.round(source.width * k);
  const h = Math.round(source.height * k);
  const out = createCanvas(w + 2 * pad, h + 2 * pad);
  const ctx = out.getContext('2d');
  ctx.fillStyle = '#ffffff';
  ctx.fillRect(0, 0, out.width, out.height);
  ctx.drawImage(rendered.canvas, source.x, source.y, source.width, source.height, pad, pad, w, h);
  // Most title-block cells are empty once their borders are masked: no recognition for those.
  if (inkPixels(ctx.getImageData(pad, pad, Math.max(1, w), Math.max(1, h)).data) < MIN_INK_PIXELS) return [];
  const pixels = await recognize(out, rendered.scale * 72 * k, '6', Math.max(1000, deadline - Date.now()));
  const f = rendered.scale * k;
  return toWords(
    pixels,
    (b) => ({
      x0: origin.x + (b.x0 - pad) / f,
      y0: origin.y + (b.y0 - pad) / f,
      x1: origin.x + (b.x1 - pad) / f,
      y1: origin.y + (b.y1 - pad) / f,
    }),
    0,
  );
};

/** Adds words unless a word with the same text already covers the same place. */
const addDistinct = (into: Word[], words: readonly Word[]): void => {
  for (const w of words) {
    const dup = into.some(
      (o) =>
        o.text === w.text &&
        Math.min(o.x1, w.x1) - Math.max(o.x0, w.x0) > 0 &&
        Math.min(o.y1, w.y1) - Math.max(o.y0, w.y0) > 0,
    );
    if (!dup) into.push(w);
  }
};

/** OCR of a whole page (text pages without a text layer, or when OCR is forced). */
export const ocrPage = async (request: OcrRequest, _scope: 'titleBlock' | 'page'): Promise<OcrResult> => {
  const { geometry } = request;
  const dpi = Math.max(geometry.width, geometry.height) > 1100 ? 150 : 200;
  return ocrArea(request, { x0: 0, y0: 0, x1: geometry.width, y1: geometry.height }, dpi, 0);
};
