/**
 * OCR of a sheet's title block (outlined or scanned sheets): first the small ruled cells where the sheet number
 * is printed, each on its own; then the ruled title block cell by cell; then, when no convincing number was
 * read, the bottom-right band and the right-hand strip (upright and turned for vertical title strips).
 */

import {
  findNumberCandidates,
  GOOD_NUMBER_SCORE,
  NUMBER_LABEL_RE,
  NUMERIC_ID_LABEL_RE,
  readsAsNumber,
} from '../drawings/number-candidates.ts';
import { DRAWING_WORD_RE } from '../drawings/sheet-title.ts';
import { findTitleBlock } from '../drawings/title-block.ts';
import {
  type Box,
  boxOf,
  centerInside,
  centerX,
  centerY,
  clampBox,
  contains,
  expand,
  intersection,
  type Word,
} from '../geometry.ts';
import {
  keepRender,
  type OcrRequest,
  type OcrResult,
  ocrArea,
  TITLE_BLOCK_DPI,
  titleBlockDpi,
  WHOLE_PASS_REDUCTION,
} from '../io/ocr.ts';
import type { PageGeometry } from '../io/pdf.ts';
import type { Ruling } from '../io/rulings.ts';
import { buildLines } from '../layout.ts';
import { cellAt, isNumberLabelWord, ocrCells, ocrSmallCells } from './ocr-cells.ts';

/**
 * Adds OCR words that do not duplicate text-layer words, nor an OCR word of the same text read in another
 * direction in the same place (a turned pass reads upright lettering too: a second reading of it).
 */
export const mergeOcrWords = (base: Word[], ocr: readonly Word[]): Word[] => {
  const out = [...base];
  for (const word of ocr) {
    const area = (word.x1 - word.x0) * (word.y1 - word.y0);
    if (base.some((other) => other.source === 'textLayer' && intersection(other, word) > 0.3 * area))
      continue;
    const readOtherwise = base.some(
      (other) =>
        other.source === 'ocr' &&
        other.dir !== word.dir &&
        other.text === word.text &&
        intersection(other, word) > 0.5 * Math.min(area, (other.x1 - other.x0) * (other.y1 - other.y0)),
    );
    if (!readOtherwise) out.push(word);
  }
  return out;
};

/**
 * `base` with the OCR words inside `read.areas` replaced by `read.words`: a closer read of an area (a table's
 * grid, its cells) stands for what an earlier OCR pass read there. Text-layer words stay.
 */
export const replaceOcrWords = (
  base: Word[],
  read: { words: readonly Word[]; areas: readonly Box[] },
): Word[] =>
  mergeOcrWords(
    base.filter((word) => word.source !== 'ocr' || !read.areas.some((area) => centerInside(area, word))),
    read.words,
  );

const sameBox = (a: Box, b: Box): boolean =>
  Math.abs(a.x0 - b.x0) < 1 &&
  Math.abs(a.y0 - b.y0) < 1 &&
  Math.abs(a.x1 - b.x1) < 1 &&
  Math.abs(a.y1 - b.y1) < 1;

/**
 * Ruled cells where the sheet number may be printed: cells holding a sheet-number label (SHEET, DRAWING NO.,
 * DWG) in the right or bottom part of the sheet, then the cells nearest the bottom-right corner (title blocks
 * put the number there). Cells must be small (a field, not a drawing area).
 */
export const numberCellsOf = (
  words: readonly Word[],
  rulings: readonly Ruling[],
  pageWidth: number,
  pageHeight: number,
  max = 8,
): Box[] => {
  const near = rulings.filter((ruling) =>
    ruling.axis === 'h'
      ? ruling.at > pageHeight * 0.4 && ruling.to > pageWidth * 0.5
      : ruling.at > pageWidth * 0.4 && ruling.to > pageHeight * 0.5,
  );
  if (near.length < 4) return [];
  const fits = (cell: Box): boolean => {
    const width = cell.x1 - cell.x0;
    const height = cell.y1 - cell.y0;
    return (
      width >= 14 &&
      height >= 12 &&
      width <= pageWidth * 0.2 &&
      height <= pageHeight * 0.12 &&
      width * height <= pageWidth * pageHeight * 0.006
    );
  };
  const out: Box[] = [];
  const add = (cell: Box | null, into: Box[]): void => {
    if (
      cell &&
      fits(cell) &&
      !out.some((other) => sameBox(other, cell)) &&
      !into.some((other) => sameBox(other, cell))
    )
      into.push(cell);
  };
  for (const word of words) {
    if (word.dir !== 0 || !isNumberLabelWord(word.text)) continue;
    if (centerX(word) < pageWidth * 0.5 && centerY(word) < pageHeight * 0.5) continue;
    add(cellAt(centerX(word), centerY(word), near), out);
  }
  const corner: Box[] = [];
  for (let x = pageWidth - 4; x > pageWidth * 0.75; x -= 16) {
    for (let y = pageHeight - 4; y > pageHeight * 0.75; y -= 10) add(cellAt(x, y, near), corner);
  }
  const dist = (cell: Box): number => Math.hypot(pageWidth - centerX(cell), pageHeight - centerY(cell));
  corner.sort((a, b) => dist(a) - dist(b));
  return [...out, ...corner].slice(0, max);
};

/**
 * Reads the small cells where the sheet number may be printed (see numberCellsOf) and puts their words in
 * place of any OCR words read there before (a cell read on its own is the more reliable reading).
 */
export const ocrNumberCells = async (
  words: Word[],
  geometry: PageGeometry,
  request: OcrRequest,
  /** Called with the cells' common box before they are read (to render a larger area around them once). */
  beforeReading: (cellsBox: Box) => Promise<void> = async () => undefined,
): Promise<{ words: Word[]; result: OcrResult | null; cells: Box[] }> => {
  if (!request.cellRulings) return { words, result: null, cells: [] };
  const rulings = await request.cellRulings().catch(() => [] as Ruling[]);
  const cells = numberCellsOf(words, rulings, geometry.width, geometry.height);
  if (cells.length === 0) return { words, result: null, cells };
  await beforeReading(boxOf(cells));
  const result = await ocrSmallCells(request, cells);
  const kept = words.filter(
    (word) => word.source !== 'ocr' || !cells.some((cell) => centerInside(cell, word)),
  );
  return { words: mergeOcrWords(kept, result.words), result, cells };
};

/**
 * Title-block OCR: the title block found from the drawing's rulings (or the bottom-right band), with its
 * ruling lines masked; then, if no sheet number was read, the right-hand strip, upright and turned 90
 * degrees (vertical title strips).
 */
export const ocrTitleBlock = async (
  words: Word[],
  geometry: PageGeometry,
  request: OcrRequest,
  rulings: readonly Ruling[],
): Promise<{ words: Word[]; seconds: number; confidences: number[] }> => {
  const { width: pageWidth, height: pageHeight } = geometry;
  const longRulings = rulings.filter(
    (ruling) => ruling.to - ruling.from >= Math.min(pageWidth, pageHeight) * 0.15,
  );
  // Before anything is read, the block is looked for from the bottom-right corner; once the number cells gave
  // a convincing number, from that number (a bottom band whose top line runs below the corner guess is found
  // only from the number inside it).
  let ruled = findTitleBlock([], null, pageWidth, pageHeight, longRulings);
  const firstArea = (): Box =>
    ruled ? expand(ruled, 4) : { x0: pageWidth * 0.45, y0: pageHeight * 0.82, x1: pageWidth, y1: pageHeight };
  let merged = words;
  let seconds = 0;
  const confidences: number[] = [];
  const deadline = Date.now() + request.limits.ocrPageTimeoutMs;
  const bestNumber = () =>
    findNumberCandidates(merged, buildLines(merged, { gapFactor: 1.5 }), pageWidth, pageHeight)[0];
  const good = (): boolean => (bestNumber()?.score ?? 0) >= GOOD_NUMBER_SCORE;
  const add = (result: OcrResult): void => {
    seconds += result.seconds;
    if (result.words.length) confidences.push(result.meanConfidence);
    merged = mergeOcrWords(merged, result.words);
  };
  // The reads below lie inside the title block (or the bottom band): one render serves them. Its pixel grid
  // is laid on the number cells' own, as if they were rendered alone: tesseract's reading of thin lettering
  // changes with sub-pixel shifts.
  const keepBlockRender = async (cellsBox: Box): Promise<void> => {
    const block = clampBox(firstArea(), pageWidth, pageHeight);
    if (!contains(block, cellsBox)) return;
    const dpi = titleBlockDpi(request);
    const scale = dpi / 72;
    const x0 = cellsBox.x0 - Math.ceil((cellsBox.x0 - block.x0) * scale) / scale;
    const y0 = cellsBox.y0 - Math.ceil((cellsBox.y0 - block.y0) * scale) / scale;
    const renderStarted = Date.now();
    await keepRender(request, { x0, y0, x1: block.x1, y1: block.y1 }, dpi);
    seconds += (Date.now() - renderStarted) / 1000;
  };
  // The small cells where the number is printed, each on its own.
  const cellPass = await ocrNumberCells(merged, geometry, request, keepBlockRender);
  if (cellPass.result) {
    seconds += cellPass.result.seconds;
    if (cellPass.result.words.length) confidences.push(cellPass.result.meanConfidence);
    merged = cellPass.words;
  }
  const number = bestNumber();
  if (number && number.score >= GOOD_NUMBER_SCORE && !(ruled && centerInside(ruled, number.box)))
    ruled = findTitleBlock([], number.box, pageWidth, pageHeight, longRulings) ?? ruled;
  // A ruled title block is read cell by cell (far more reliable than one pass over the whole block); of a band
  // across the sheet, the part around the number (see aroundNumber).
  if (ruled) {
    const block = clampBox(expand(ruled, 1), pageWidth, pageHeight);
    const cellBorders = request.cellRulings ? await request.cellRulings().catch(() => [] as Ruling[]) : [];
    const numberRead = number !== undefined && number.score >= GOOD_NUMBER_SCORE;
    const read = numberRead ? aroundNumber(block, number.box, cellBorders, pageWidth) : block;
    // Cell borders are painted out too (lettering that touches one is dropped); strokes of outlined lettering,
    // shorter than 40 % of the block's smaller side, are not borders.
    const side = Math.min(block.x1 - block.x0, block.y1 - block.y0);
    const borders = [...rulings, ...cellBorders.filter((ruling) => ruling.to - ruling.from >= 0.4 * side)];
    add(await ocrCells(request, read, borders, { cells: cellPass.cells, numberRead }));
  }
  // A title strip (a block over half the sheet's height) prints its title vertically when no upright line of it
  // names a kind of drawing (`DETAILS` up the strip of a sheet numbered `C6` across its foot): read it turned.
  const strip = ruled && ruled.y1 - ruled.y0 > pageHeight * 0.5 ? ruled : null;
  if (strip && good() && !namesDrawing(merged, strip) && Date.now() < deadline) {
    const turned = clampBox(expand(strip, 1), pageWidth, pageHeight);
    add(await ocrArea(request, turned, titleBlockDpi(request), 90, rulings, WHOLE_PASS_REDUCTION));
  }
  if (!ruled || !good()) {
    const areas: Array<{ box: Box; turn: 0 | 90 | 270 }> = [{ box: firstArea(), turn: 0 }];
    if (!ruled || ruled.y1 - ruled.y0 > pageHeight * 0.5)
      areas.push({ box: { x0: pageWidth * 0.84, y0: 0, x1: pageWidth, y1: pageHeight }, turn: 90 });
    if (ruled && ruled.y1 - ruled.y0 > pageHeight * 0.5)
      areas.push({
        box: { x0: pageWidth * 0.45, y0: pageHeight * 0.82, x1: pageWidth, y1: pageHeight },
        turn: 0,
      });
    for (const area of areas) {
      if (Date.now() > deadline) break;
      add(
        await ocrArea(
          request,
          clampBox(area.box, pageWidth, pageHeight),
          titleBlockDpi(request),
          area.turn,
          rulings,
          WHOLE_PASS_REDUCTION,
        ),
      );
      if (good()) break;
    }
  }
  // A scan has no ruled cells to read one by one: the field under a number label read without its value is.
  const fields = good()
    ? []
    : unreadNumberFields(merged, request.cellRulings ? await request.cellRulings().catch(() => []) : []);
  if (fields.length && Date.now() < deadline) {
    // Read at twice the resolution (field values are small lettering); only what reads as a number is kept (the
    // labels were read already, and misread again here they would pass for title lines).
    const fieldPass = await ocrSmallCells(
      { ...request, dpi: 2 * titleBlockDpi(request), renders: [] },
      fields,
    );
    add({
      ...fieldPass,
      // `OF` too, which makes a sheet's place in its set of the numbers beside it (`1 OF 1` under `SHEET`).
      words: fieldPass.words.filter(
        (word) =>
          (readsAsNumber(word.text) || /^OF$/i.test(word.text)) &&
          (word.confidence ?? 0) >= TRUSTED_FIELD_CONFIDENCE,
      ),
    });
  }
  return { words: merged, seconds, confidences };
};

/** A field read without cell borders to set it apart is kept only when read this confidently. */
const TRUSTED_FIELD_CONFIDENCE = 60;

/** Most fields under number labels read on one sheet. */
const MAX_LABEL_FIELDS = 3;

/**
 * The fields under OCR-read number labels (`FILE NO.`, `DRAWING NO.`) that hold no sheet-number candidate:
 * from the label's top down to the cell border under it (`borders`: the first horizontal ruling across the
 * label, within six label heights: a value in lettering twice the label's sits lower than three), else three
 * label heights under it; widened to the right, where a cell prints its value.
 */
export const unreadNumberFields = (words: readonly Word[], borders: readonly Ruling[] = []): Box[] => {
  const upright = words.filter((word) => word.dir === 0);
  const lines = buildLines(upright, { gapFactor: 1.5 });
  const values = new Set(
    findNumberCandidates(upright, lines, Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY).map(
      (candidate) => candidate.box,
    ),
  );
  const fields: Box[] = [];
  for (const label of lines) {
    const text = label.text.trim();
    if (label.words.some((word) => word.source !== 'ocr')) continue;
    if (!NUMBER_LABEL_RE.test(text) && !NUMERIC_ID_LABEL_RE.test(text)) continue;
    const height = label.y1 - label.y0;
    const middle = (label.x0 + label.x1) / 2;
    const border = borders
      .filter(
        (ruling) =>
          ruling.axis === 'h' &&
          ruling.from <= middle &&
          ruling.to >= middle &&
          ruling.at > label.y1 + height &&
          ruling.at < label.y1 + 6 * height,
      )
      .sort((first, second) => first.at - second.at)[0];
    const field = {
      x0: label.x0 - 2 * height,
      y0: label.y0,
      x1: label.x1 + 6 * height,
      y1: border ? border.at : label.y1 + 3 * height,
    };
    if ([...values].some((box) => centerInside(field, box))) continue;
    fields.push(field);
  }
  return fields.slice(0, MAX_LABEL_FIELDS);
};

/** Whether an upright line read in the area names a kind of drawing (`PLAN`, `DETAILS`, ...). */
const namesDrawing = (words: readonly Word[], area: Box): boolean =>
  buildLines(
    words.filter((word) => word.dir === 0 && centerInside(area, word)),
    { gapFactor: 1.5 },
  ).some((line) => DRAWING_WORD_RE.test(line.text));

/** Of a band across the sheet, the part within this share of the page's width left of the number is read. */
const BAND_READ_SHARE = 0.3;

/**
 * The part of a title block the block pass reads once the number is known. A band across the whole sheet (wider
 * than half of it) prints the sheet's title beside its number, and its left part holds revision tables, seals,
 * logos and signatures whose reading costs most of the pass: the band is read from the cell border nearest
 * BAND_READ_SHARE of the page left of the number (a border that runs over most of the band's height, so no
 * lettering is cut: a project name cut in pieces would no longer repeat across the set as boilerplate). Without
 * such a border, or for any other block, the whole block.
 */
export const aroundNumber = (block: Box, number: Box, borders: readonly Ruling[], pageWidth: number): Box => {
  if (block.x1 - block.x0 <= 0.5 * pageWidth) return block;
  const target = number.x0 - BAND_READ_SHARE * pageWidth;
  const bandHeight = block.y1 - block.y0;
  const cuts = borders
    .filter(
      (ruling) =>
        ruling.axis === 'v' &&
        ruling.at > block.x0 + 2 &&
        ruling.at <= target &&
        Math.min(ruling.to, block.y1) - Math.max(ruling.from, block.y0) >= 0.6 * bandHeight,
    )
    .map((ruling) => ruling.at);
  return cuts.length ? { ...block, x0: Math.max(...cuts) - 1 } : block;
};

/** Resolution of a drawing-area read: an index's lettering is about as large as a title block's fields. */
const DRAWING_AREA_DPI = 200;

/** A vertical line spanning this fraction of the drawing area's height is a column border of a table in it. */
const COLUMN_BORDER_HEIGHT = 0.3;

/**
 * OCR of a sheet's drawing area (the page above a bottom title band, or left of a right-hand strip, whichever
 * is larger), for the drawing index of an outlined or scanned title sheet: cut into strips at the long vertical
 * lines (a table's column borders), each strip read as one block of text with the rulings masked. Read as a
 * whole, tesseract's layout analysis drops a narrow column of short numbers (`G-0`, `R-1`).
 */
export const ocrDrawingArea = async (
  request: OcrRequest,
  titleBlock: Box,
  rulings: readonly Ruling[],
): Promise<OcrResult> => {
  const started = Date.now();
  const { width: pageWidth, height: pageHeight } = request.geometry;
  const above = { x0: 0, y0: 0, x1: pageWidth, y1: titleBlock.y0 };
  const left = { x0: 0, y0: 0, x1: titleBlock.x0, y1: pageHeight };
  const area = above.y1 * pageWidth >= left.x1 * pageHeight ? above : left;
  const dpi = Math.round((DRAWING_AREA_DPI * titleBlockDpi(request)) / TITLE_BLOCK_DPI);
  const borders = rulings
    .filter(
      (ruling) =>
        ruling.axis === 'v' &&
        ruling.at > area.x0 + 10 &&
        ruling.at < area.x1 - 10 &&
        Math.min(ruling.to, area.y1) - Math.max(ruling.from, area.y0) >=
          COLUMN_BORDER_HEIGHT * (area.y1 - area.y0),
    )
    .map((ruling) => ruling.at)
    .sort((a, b) => a - b);
  const xs = [area.x0, ...borders, area.x1];
  const words: Word[] = [];
  let confidences = 0;
  for (let i = 0; i + 1 < xs.length; i++) {
    const x0 = xs[i] ?? area.x0;
    const x1 = xs[i + 1] ?? area.x1;
    if (x1 - x0 < 10) continue;
    const strip = await ocrArea(request, { ...area, x0, x1 }, dpi, 0, rulings, 1, '6');
    words.push(...strip.words);
    confidences += strip.meanConfidence * strip.words.length;
  }
  return {
    words,
    meanConfidence: words.length ? Math.round(confidences / words.length) : 0,
    seconds: (Date.now() - started) / 1000,
  };
};
