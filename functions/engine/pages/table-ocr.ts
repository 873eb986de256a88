/**
 * On a sheet read by OCR, each column of a table is read again alone. The whole-sheet read is tuned for a
 * drawing's scattered notes: in a grid, tesseract's layout analysis drops a narrow column of short codes (an
 * index's sheet numbers, a schedule's marks) beside a wide column of text, reads a cell's border as a `|` or a
 * `1`, and at the sheet's resolution loses the short marks of small lettering (the dash of `G-1`, a foot mark).
 * A column's cells are rendered by PDFium at 300 dpi, each cell's inside (its borders cut away) is placed under
 * the one above on a white page with a blank band between them, and that page is read as one block of text
 * (page segmentation 6): each line read belongs to the cell it was cut from. A cell the column's read leaves
 * empty keeps the sheet's read; a column of lengths or sizes is written in its kind's form (table-values.ts). A
 * scan's grids are pixels: its rulings are found in a render (scanRulings).
 */
import { createCanvas } from '@napi-rs/canvas';
import { rasterRulings, shaveBorders } from '../drawings/raster-rulings.ts';
import { columnKind, repairColumnValues, sameHeadings } from '../drawings/table-values.ts';
import { cellText, type TableCell, type TableRead } from '../drawings/tables.ts';
import { type Box, boxOf, type Word } from '../geometry.ts';
import { type OcrRequest, ocrArea, recognize, toWords, withPdfiumRender } from '../io/ocr.ts';
import type { PdfiumPage } from '../io/pdfium.ts';
import { canvasOf, renderPdfiumPixels } from '../io/render.ts';
import type { Ruling } from '../io/rulings.ts';

/** Resolution of a column's read: short codes in small lettering want more than the drawing area's 200 dpi. */
const COLUMN_DPI = 300;
/** A cell's border is looked for this far in from each side (points): a heavy pen, or a scan's line off its place. */
const MAX_BORDER = 3;
/** White pixels around each cell's inside on the column's page, so that no two cells read as one line. */
const CELL_GAP = 24;
/** The read starts no column when less than this share of the page's time is left. */
const TIME_SHARE_LEFT = 0.25;

/**
 * Reads `cells` (one column's, top to bottom) from one PDFium render of `strip` stacked as described above, and
 * returns each cell's words (display points, source `ocr`), with the cells in the order given.
 */
const readStackedCells = async (
  request: OcrRequest,
  pdfiumPage: PdfiumPage,
  strip: Box,
  cells: readonly TableCell[],
): Promise<Word[][]> => {
  const rendered = renderPdfiumPixels(
    pdfiumPage,
    strip,
    COLUMN_DPI,
    request.limits.maxCanvasPixels,
    request.turn,
  );
  const { scale, width: pixelWidth, height: pixelHeight } = rendered;
  const render = canvasOf(rendered);
  const slots = cells.map((cell) => {
    const x0 = Math.max(0, Math.round((cell.box.x0 - strip.x0) * scale));
    const y0 = Math.max(0, Math.round((cell.box.y0 - strip.y0) * scale));
    const x1 = Math.min(pixelWidth, Math.round((cell.box.x1 - strip.x0) * scale));
    const y1 = Math.min(pixelHeight, Math.round((cell.box.y1 - strip.y0) * scale));
    const inside = shaveBorders(rendered, { x0, y0, x1, y1 }, Math.round(MAX_BORDER * scale));
    return {
      x: inside.x0,
      y: inside.y0,
      width: Math.max(1, inside.x1 - inside.x0),
      height: Math.max(1, inside.y1 - inside.y0),
      top: 0,
    };
  });
  let top = CELL_GAP;
  for (const slot of slots) {
    slot.top = top;
    top += slot.height + CELL_GAP;
  }
  const page = createCanvas(Math.max(...slots.map((slot) => slot.width)) + 2 * CELL_GAP, top);
  const context = page.getContext('2d');
  context.fillStyle = '#ffffff';
  context.fillRect(0, 0, page.width, page.height);
  for (const slot of slots)
    context.drawImage(
      render,
      slot.x,
      slot.y,
      slot.width,
      slot.height,
      CELL_GAP,
      slot.top,
      slot.width,
      slot.height,
    );
  const pixels = await recognize(page, scale * 72, '6', request.limits.ocrPageTimeoutMs, false, 0);
  const out: Word[][] = cells.map(() => []);
  for (const pixelWord of pixels) {
    const middle = (pixelWord.y0 + pixelWord.y1) / 2;
    const index = slots.findIndex((slot) => middle >= slot.top && middle < slot.top + slot.height);
    const slot = slots[index];
    if (!slot) continue;
    const [word] = toWords(
      [pixelWord],
      (box) => ({
        x0: strip.x0 + (slot.x + box.x0 - CELL_GAP) / scale,
        y0: strip.y0 + (slot.y + box.y0 - slot.top) / scale,
        x1: strip.x0 + (slot.x + box.x1 - CELL_GAP) / scale,
        y1: strip.y0 + (slot.y + box.y1 - slot.top) / scale,
      }),
      0,
    );
    if (word) out[index]?.push(word);
  }
  return out;
};

/** Words read again by OCR in `areas`: they stand for every OCR word read before in those areas. */
export interface AreasRead {
  words: Word[];
  areas: Box[];
  seconds: number;
}

/**
 * Reads each column of `tables` again and sets the text of each of its cells the read finds words in (in
 * place); returns the words read, with the seconds spent. Columns are read while the page's time lasts; a
 * table's later columns keep the sheet's read.
 */
export const readTableColumns = async (
  request: OcrRequest,
  pdfiumPage: PdfiumPage,
  tables: readonly TableRead[],
): Promise<AreasRead> => {
  const clock = pageClock(request);
  const read: Word[] = [];
  const areas: Box[] = [];
  const repairs: Array<{ table: TableRead; column: number; cells: TableCell[] }> = [];
  reading: for (const table of tables) {
    const body = table.rows.filter((row) => !row.divider);
    if (body.length < 2) continue;
    for (let column = 0; column < table.columnCount; column++) {
      // The column's own cells (a cell merged over the next columns is not this column's to read).
      const cells = body.flatMap((row) => row.cells.slice(column, column + 1));
      const narrowest = Math.min(...cells.map((cell) => cell.box.x1 - cell.box.x0));
      const own = cells.filter((cell) => cell.box.x1 - cell.box.x0 <= narrowest * 1.1 + 1);
      if (own.length < 2) continue;
      // Out of time: the columns read so far are still written in their kinds below.
      if (!clock.hasTime()) break reading;
      const wordsByCell = await readStackedCells(
        request,
        pdfiumPage,
        boxOf(own.map((cell) => cell.box)),
        own,
      );
      own.forEach((cell, index) => {
        const mine = wordsByCell[index] ?? [];
        if (!mine.length) return;
        cell.text = cellText(mine);
        read.push(...mine);
        areas.push(cell.box);
      });
      repairs.push({ table, column, cells: own });
    }
  }
  // Each column is written in its kind of value (table-values.ts), a kind shown in the same column of a table of
  // the same family (sameHeadings) holding for it too.
  const kinds = repairs.map((repair) => columnKind(repair.cells.map((cell) => cell.text)));
  repairs.forEach((repair, index) => {
    const known =
      kinds[index] ??
      kinds.find(
        (kind, other) =>
          kind !== null &&
          repairs[other]?.column === repair.column &&
          sameHeadings(repair.table, repairs[other]?.table),
      ) ??
      null;
    repairColumnValues(
      repair.cells.map((cell) => cell.text),
      known,
    ).forEach((text, at) => {
      const cell = repair.cells[at];
      if (cell) cell.text = text;
    });
  });
  return { words: read, areas, seconds: clock.seconds() };
};

/** The page's time as a table's reads see it: whether a read may start, and the seconds they have spent. */
const pageClock = (request: OcrRequest): { hasTime: () => boolean; seconds: () => number } => {
  const started = Date.now();
  const pageTime = request.limits.pageTimeoutMs;
  const deadline = request.deadline ?? started + pageTime;
  return {
    hasTime: () => deadline - Date.now() >= pageTime * TIME_SHARE_LEFT,
    seconds: () => (Date.now() - started) / 1000,
  };
};

/** Resolution of the read of a grid whose lettering is outlines (small schedule lettering). */
const OUTLINED_DPI = 300;
/** Outlined grids read on one sheet at most (each is a render and a read). */
const MAX_OUTLINED_GRIDS = 4;

/**
 * Reads the grids `frames` (tables.ts unreadGrids: ruled, with no text inside) of a sheet read from its text
 * layer by OCR, their `rulings` painted out, and returns the words read with the seconds spent. A grid that
 * holds no lettering at all gives no words.
 */
export const readOutlinedGrids = async (
  request: OcrRequest,
  pdfiumPage: PdfiumPage,
  frames: readonly Box[],
  rulings: readonly Ruling[],
): Promise<AreasRead> => {
  const clock = pageClock(request);
  const read: Word[] = [];
  const areas: Box[] = [];
  for (const frame of frames.slice(0, MAX_OUTLINED_GRIDS)) {
    if (!clock.hasTime()) break;
    const result = await withPdfiumRender(request, pdfiumPage, frame, OUTLINED_DPI, () =>
      ocrArea(request, frame, OUTLINED_DPI, 0, rulings),
    );
    read.push(...result.words);
    areas.push(frame);
  }
  return { words: read, areas, seconds: clock.seconds() };
};

/** Resolution of a scan's render for its rulings (a one-pixel line of a 400 dpi scan survives it). */
const SCAN_RULINGS_DPI = 100;

/**
 * The rulings of a sheet whose grids are pixels (a scan), read from a render of `area` (raster-rulings.ts), at
 * least `minLength` points long.
 */
export const scanRulings = (
  request: OcrRequest,
  pdfiumPage: PdfiumPage,
  area: Box,
  minLength: number,
): Ruling[] => {
  const rendered = renderPdfiumPixels(
    pdfiumPage,
    area,
    SCAN_RULINGS_DPI,
    request.limits.maxCanvasPixels,
    request.turn,
  );
  return rasterRulings(rendered.data, rendered.width, rendered.height, rendered.scale, area, minLength);
};
