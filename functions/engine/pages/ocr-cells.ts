/**
 * OCR of ruled title-block cells, each read on its own (PSM 6) at a scale that keeps its text near the size
 * tesseract reads best: the cells of a ruled block (cellsOf, ocrCells) and the few small cells where the sheet
 * number is printed (cellAt, ocrSmallCells). Renders, masks and recognition come from ocr.ts.
 */
import { type Canvas, createCanvas } from '@napi-rs/canvas';
import { parseSheetNumber } from '../drawings/sheet-number.ts';
import { type Box, area as boxArea, expand, intersection, type Word } from '../geometry.ts';
import {
  maskRulings,
  type OcrRequest,
  type OcrResult,
  recognize,
  renderForOcr,
  scaledCanvas,
  summarize,
  titleBlockDpi,
  toWords,
  WHOLE_PASS_REDUCTION,
} from '../io/ocr.ts';
import { cropCanvas, type RenderedRegion } from '../io/render.ts';
import type { Ruling } from '../io/rulings.ts';

/**
 * Cells of a ruled box: columns split by vertical rulings spanning most of its height, then each column
 * split by horizontal rulings spanning most of the column's width.
 */
export const cellsOf = (area: Box, rulings: readonly Ruling[]): Box[] => {
  const height = area.y1 - area.y0;
  const inside = (ruling: Ruling): boolean =>
    ruling.axis === 'v'
      ? ruling.at > area.x0 + 2 && ruling.at < area.x1 - 2
      : ruling.at > area.y0 + 2 && ruling.at < area.y1 - 2;
  const xs = [
    area.x0,
    ...rulings
      .filter(
        (ruling) =>
          ruling.axis === 'v' &&
          inside(ruling) &&
          Math.min(ruling.to, area.y1) - Math.max(ruling.from, area.y0) >= 0.6 * height,
      )
      .map((ruling) => ruling.at),
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
          (ruling) =>
            ruling.axis === 'h' &&
            inside(ruling) &&
            Math.min(ruling.to, x1) - Math.max(ruling.from, x0) >= 0.7 * (x1 - x0),
        )
        .map((ruling) => ruling.at),
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
/** A cell over this share of the block is not read on its own: the pass over the whole block covers it. */
const WHOLE_CELL_SHARE = 0.5;
/** A cell that a cell read on its own before (a sheet-number cell) covers this much of is not read again. */
const READ_BEFORE_SHARE = 0.8;
/**
 * Words the pass over the whole block read this confidently are not read again in their cell (titles and field
 * values read at 85 and more on every corpus set; a slip reads lower).
 */
const SURE_CONFIDENCE = 85;
/** OCR words under this confidence are strokes (seal, logo, signature), never a title (see sheet-title.ts). */
const STROKES_CONFIDENCE = 50;

/**
 * OCR of a ruled title block: one pass over the whole block (PSM 3, from a copy reduced by WHOLE_PASS_REDUCTION),
 * then the cells whose lettering that pass did not read confidently, each on its own as one block at a scale
 * that keeps its text near the size tesseract reads best (each reading finds words the other misses; tesseract's
 * cost is in the lines it reads, so lettering is read a second time only where the first reading was unsure).
 * Cells read on their own before (`readBefore.cells`: the sheet-number cells) are not read again on their own,
 * and the pass over the whole block leaves them out when they gave a convincing number (`readBefore.numberRead`);
 * without one it reads them too (it reads a number their own reading missed: Kirkland A1). A cell where the
 * whole pass read strokes only (every word under STROKES_CONFIDENCE: a seal, a logo) is not read again either.
 */
export const ocrCells = async (
  request: OcrRequest,
  area: Box,
  rulings: readonly Ruling[],
  readBefore: { cells: readonly Box[]; numberRead: boolean } = { cells: [], numberRead: false },
): Promise<OcrResult> => {
  const started = Date.now();
  const { limits } = request;
  const rendered = await renderForOcr(request, area, titleBlockDpi(request));
  const origin = rendered.box;
  maskRulings(rendered.canvas, rulings, origin, rendered.scale);
  const pixelsPerPoint = rendered.scale;
  const deadline = started + limits.ocrPageTimeoutMs;
  const reduced = scaledCanvas(rendered.canvas, WHOLE_PASS_REDUCTION);
  const wholeScale = (pixelsPerPoint * reduced.width) / rendered.canvas.width;
  if (readBefore.numberRead && reduced !== rendered.canvas)
    paintWhite(reduced, readBefore.cells, origin, wholeScale);
  const whole = await recognize(reduced, wholeScale * 72, '3', limits.ocrPageTimeoutMs);
  const words: Word[] = toWords(
    whole,
    (pixelBox) => ({
      x0: origin.x0 + pixelBox.x0 / wholeScale,
      y0: origin.y0 + pixelBox.y0 / wholeScale,
      x1: origin.x0 + pixelBox.x1 / wholeScale,
      y1: origin.y0 + pixelBox.y1 / wholeScale,
    }),
    0,
  );
  const areaSize = boxArea(area);
  for (const cell of cellsOf(area, rulings)) {
    if (Date.now() > deadline) break;
    // A "cell" that is most of the block (a band without long column lines) is what the whole pass just read.
    if (boxArea(cell) > WHOLE_CELL_SHARE * areaSize) continue;
    if (readBefore.cells.some((read) => intersection(read, cell) >= READ_BEFORE_SHARE * boxArea(cell)))
      continue;
    const cellWidthPx = Math.round((cell.x1 - cell.x0) * pixelsPerPoint);
    const cellHeightPx = Math.round((cell.y1 - cell.y0) * pixelsPerPoint);
    if (cellWidthPx < 8 || cellHeightPx < 8) continue;
    const source = {
      x: (cell.x0 - origin.x0) * pixelsPerPoint,
      y: (cell.y0 - origin.y0) * pixelsPerPoint,
      width: cellWidthPx,
      height: cellHeightPx,
    };
    const sure = words.filter(
      (word) => (word.confidence ?? 0) >= SURE_CONFIDENCE && intersection(word, cell) > 0,
    );
    if (inkPixels(cellPixels(rendered, source, sure)) < MIN_INK_PIXELS) continue;
    const readThere = words.filter((word) => intersection(word, cell) > 0.5 * boxArea(word));
    if (readThere.length > 0 && readThere.every((word) => (word.confidence ?? 0) < STROKES_CONFIDENCE))
      continue;
    // Shrink tall cells (big lettering) so a line of text is at most ~CELL_TARGET_HEIGHT_PX high.
    const zoom = Math.min(1, CELL_TARGET_HEIGHT_PX / Math.min(cellHeightPx, CELL_TARGET_HEIGHT_PX * 3));
    const read = await readCellImage(rendered, source, { x: cell.x0, y: cell.y0 }, zoom, 10, deadline, false);
    addDistinct(words, read);
  }
  return summarize(words, started);
};

/** Paints page boxes white on a canvas whose top-left pixel is the page point `origin`, at `scale` pixels per point. */
const paintWhite = (
  canvas: Canvas,
  boxes: readonly Box[],
  origin: Pick<Box, 'x0' | 'y0'>,
  scale: number,
): void => {
  const context = canvas.getContext('2d');
  context.fillStyle = '#ffffff';
  for (const box of boxes) {
    context.fillRect(
      (box.x0 - origin.x0) * scale,
      (box.y0 - origin.y0) * scale,
      (box.x1 - box.x0) * scale,
      (box.y1 - box.y0) * scale,
    );
  }
};

/** The RGBA pixels of a cell of a render (`source`, render pixels) with the boxes of `read` words painted out. */
const cellPixels = (
  rendered: RenderedRegion,
  source: { x: number; y: number; width: number; height: number },
  read: readonly Word[],
): Uint8ClampedArray => {
  const canvas = cropCanvas(rendered.canvas, source.x, source.y, source.width, source.height);
  const { scale } = rendered;
  const cellOrigin = { x0: rendered.box.x0 + source.x / scale, y0: rendered.box.y0 + source.y / scale };
  paintWhite(
    canvas,
    read.map((word) => expand(word, WORD_MARGIN)),
    cellOrigin,
    scale,
  );
  return canvas.getContext('2d').getImageData(0, 0, source.width, source.height).data;
};

/** Margin (points) around a word's box within which its lettering lies (boxes are tight to the glyphs). */
const WORD_MARGIN = 2;

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
    for (const ruling of rulings) {
      if (ruling.axis !== 'h' || skipped.has(ruling) || ruling.from > x + 0.5 || ruling.to < x - 0.5)
        continue;
      if (ruling.at < y && (!top || ruling.at > top.at)) top = ruling;
      if (ruling.at > y && (!bottom || ruling.at < bottom.at)) bottom = ruling;
    }
    if (!top || !bottom) return null;
    let left: Ruling | null = null;
    let right: Ruling | null = null;
    for (const ruling of rulings) {
      if (ruling.axis !== 'v' || ruling.from > top.at + 2 || ruling.to < bottom.at - 2) continue;
      if (ruling.at < x && (!left || ruling.at > left.at)) left = ruling;
      if (ruling.at > x && (!right || ruling.at < right.at)) right = ruling;
    }
    if (!left || !right) return null;
    const spans = (border: Ruling): boolean => border.from <= left.at + 2 && border.to >= right.at - 2;
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
    x0: Math.min(...cells.map((cell) => cell.x0)),
    y0: Math.min(...cells.map((cell) => cell.y0)),
    x1: Math.max(...cells.map((cell) => cell.x1)),
    y1: Math.max(...cells.map((cell) => cell.y1)),
  };
  const rendered = await renderForOcr(request, area, titleBlockDpi(request));
  const origin = rendered.box;
  const pixelsPerPoint = rendered.scale;
  const deadline = started + limits.ocrPageTimeoutMs;
  const confidentNumber = (read: readonly Word[]): boolean =>
    read.some((word) => (word.confidence ?? 0) >= 70 && parseSheetNumber(word.text) !== null);
  // Once a cell gave a confident sheet number, the cells after it (farther from the corner, or unlabelled) get
  // one reading only: the second margin is for a number misread, not for cells that hold none.
  let numberRead = false;
  for (const cell of cells) {
    // Crop the border lines off (1.5 pt inside), then pad with white.
    const inset = 1.5;
    const cx0 = cell.x0 + inset;
    const cy0 = cell.y0 + inset;
    const cellWidthPx = Math.round((cell.x1 - cell.x0 - 2 * inset) * pixelsPerPoint);
    const cellHeightPx = Math.round((cell.y1 - cell.y0 - 2 * inset) * pixelsPerPoint);
    if (cellWidthPx < 8 || cellHeightPx < 8) continue;
    const zoom = Math.min(1, (CELL_TARGET_HEIGHT_PX * 3) / cellHeightPx);
    // tesseract's reading of thin stroke lettering changes with the margin around it: a second margin is
    // tried when the first reading holds no confident sheet number, and both readings are kept; not for a cell
    // read surely as another field (`REV. NO.`, `CONTRACT ID. 1000015860`).
    for (const pad of numberRead ? [4] : [4, 30]) {
      if (Date.now() > deadline) break;
      // Whole-pixel source offsets: a fractional offset resamples (blurs) thin stroke lettering.
      const source = {
        x: Math.round((cx0 - origin.x0) * pixelsPerPoint),
        y: Math.round((cy0 - origin.y0) * pixelsPerPoint),
        width: cellWidthPx,
        height: cellHeightPx,
      };
      const read = await readCellImage(rendered, source, { x: cx0, y: cy0 }, zoom, pad, deadline);
      addDistinct(words, read);
      if (confidentNumber(read)) {
        numberRead = true;
        break;
      }
      if (readWhole(read)) break;
    }
  }
  return summarize(words, started);
};

/** A word that labels a sheet-number field (`SHEET`, `DRAWING` of `DRAWING NO.`, `DWG:`), its trailing marks aside. */
export const isNumberLabelWord = (text: string): boolean =>
  /^(?:SHEET|SHT|DRAWING|DWG|DRG)$/i.test(text.replace(/[.:#]+$/, ''));

/**
 * A cell's reading that leaves nothing to try again: words, every one read at SURE_CONFIDENCE, none of them a
 * sheet-number label (a number field read without its number is worth a second reading).
 */
const readWhole = (read: readonly Word[]): boolean =>
  read.length > 0 &&
  read.every((word) => (word.confidence ?? 0) >= SURE_CONFIDENCE && !isNumberLabelWord(word.text));

/** Fewer dark pixels than this (a speck, a stray line end) is an empty cell; one small digit has hundreds. */
const MIN_INK_PIXELS = 20;

/** Dark pixels in RGBA data. */
export const inkPixels = (rgba: Uint8ClampedArray): number => {
  let dark = 0;
  for (let at = 0; at < rgba.length; at += 4) {
    if ((rgba[at] ?? 255) + (rgba[at + 1] ?? 255) + (rgba[at + 2] ?? 255) < 480) dark++;
  }
  return dark;
};

/**
 * Reads one cell of a render as a block of text (PSM 6): the `source` pixels, scaled by `zoom` and padded with
 * white, with the words mapped back to page points from the cell's top-left `origin`.
 */
const readCellImage = async (
  rendered: RenderedRegion,
  source: { x: number; y: number; width: number; height: number },
  origin: { x: number; y: number },
  zoom: number,
  pad: number,
  deadline: number,
  /** See recognize: false for a second reading of what a pass with the inverted retry read before. */
  retryInverted = true,
): Promise<Word[]> => {
  const zoomedWidth = Math.round(source.width * zoom);
  const zoomedHeight = Math.round(source.height * zoom);
  const out = createCanvas(zoomedWidth + 2 * pad, zoomedHeight + 2 * pad);
  const ctx = out.getContext('2d');
  ctx.fillStyle = '#ffffff';
  ctx.fillRect(0, 0, out.width, out.height);
  ctx.drawImage(
    rendered.canvas,
    source.x,
    source.y,
    source.width,
    source.height,
    pad,
    pad,
    zoomedWidth,
    zoomedHeight,
  );
  // Most title-block cells are empty once their borders are masked: no recognition for those.
  if (
    inkPixels(ctx.getImageData(pad, pad, Math.max(1, zoomedWidth), Math.max(1, zoomedHeight)).data) <
    MIN_INK_PIXELS
  )
    return [];
  const pixels = await recognize(
    out,
    rendered.scale * 72 * zoom,
    '6',
    Math.max(1000, deadline - Date.now()),
    retryInverted,
  );
  const imagePixelsPerPoint = rendered.scale * zoom;
  return toWords(
    pixels,
    (pixelBox) => ({
      x0: origin.x + (pixelBox.x0 - pad) / imagePixelsPerPoint,
      y0: origin.y + (pixelBox.y0 - pad) / imagePixelsPerPoint,
      x1: origin.x + (pixelBox.x1 - pad) / imagePixelsPerPoint,
      y1: origin.y + (pixelBox.y1 - pad) / imagePixelsPerPoint,
    }),
    0,
  );
};

/** Adds words unless a word with the same text already covers the same place. */
const addDistinct = (into: Word[], words: readonly Word[]): void => {
  for (const word of words) {
    const dup = into.some(
      (other) =>
        other.text === word.text &&
        Math.min(other.x1, word.x1) - Math.max(other.x0, word.x0) > 0 &&
        Math.min(other.y1, word.y1) - Math.max(other.y0, word.y0) > 0,
    );
    if (!dup) into.push(word);
  }
};
