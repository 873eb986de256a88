/**
 * On a sheet read by OCR, a table's column that the whole-sheet read left mostly empty is read again alone:
 * tesseract's layout analysis drops a narrow column of short codes (an index's sheet numbers, a schedule's
 * marks) beside a wide column of text. The column's body is rendered by PDFium and read as one block of text
 * (page segmentation 6) with the grid's lines painted out, and each word goes to the row it sits in. A scan's
 * grids are pixels: its rulings are found in a render (scanRulings).
 */
import { type Box, boxOf, centerX, centerY, type Word } from './geometry.ts';
import type { PdfiumPage } from './io/pdfium.ts';
import { buildLines, sortReadingOrder } from './layout.ts';
import { type OcrRequest, ocrArea } from './ocr.ts';
import { rasterRulings } from './raster-rulings.ts';
import { renderPdfiumPixels, renderPdfiumRegion } from './render.ts';
import type { Ruling } from './rulings.ts';
import type { TableRead } from './tables.ts';

/** Resolution of a column's read: short codes in small lettering want more than the drawing area's 200 dpi. */
const COLUMN_DPI = 300;
/** Columns read again on one sheet at most (each is a render and a read). */
const MAX_COLUMNS = 8;
/** A column is read again when at least this share of its body cells is empty. */
const EMPTY_SHARE = 0.5;
/** Words under this confidence are noise from linework, not a cell's text. */
const MIN_CONFIDENCE = 40;
/** The read starts no column when less than this share of the page's time is left. */
const TIME_SHARE_LEFT = 0.25;

const inside = (box: Box, word: Word): boolean =>
  centerX(word) > box.x0 && centerX(word) < box.x1 && centerY(word) > box.y0 && centerY(word) < box.y1;

/**
 * Fills the empty cells of the mostly empty columns of `tables` (in place) and returns the words read, with the
 * seconds spent. `rulings` are painted out of the renders.
 */
export const readEmptyColumns = async (
  request: OcrRequest,
  pdfiumPage: PdfiumPage,
  tables: readonly TableRead[],
  rulings: readonly Ruling[],
): Promise<{ words: Word[]; seconds: number }> => {
  const started = Date.now();
  const pageTime = request.limits.pageTimeoutMs;
  const deadline = request.deadline ?? started + pageTime;
  const read: Word[] = [];
  let columnsRead = 0;
  for (const table of tables) {
    const body = table.rows.filter((row) => !row.divider);
    if (body.length < 2) continue;
    for (let column = 0; column < table.columnCount; column++) {
      // The column's own cells (a cell merged over the next columns is not this column's to fill).
      const cells = body.flatMap((row) => row.cells.slice(column, column + 1));
      const narrowest = Math.min(...cells.map((cell) => cell.box.x1 - cell.box.x0));
      const own = new Set(cells.filter((cell) => cell.box.x1 - cell.box.x0 <= narrowest * 1.1 + 1));
      const empty = body.filter((row) => {
        const cell = row.cells[column];
        return cell !== undefined && own.has(cell) && !cell.text;
      });
      if (empty.length < EMPTY_SHARE * body.length) continue;
      if (columnsRead >= MAX_COLUMNS || deadline - Date.now() < pageTime * TIME_SHARE_LEFT) break;
      const strip = boxOf([...own].map((cell) => cell.box));
      columnsRead++;
      const kept = request.renders?.length ?? 0;
      request.renders ??= [];
      request.renders.push({
        dpi: COLUMN_DPI,
        rendered: renderPdfiumRegion(
          pdfiumPage,
          strip,
          COLUMN_DPI,
          request.limits.maxCanvasPixels,
          request.turn,
        ),
      });
      try {
        const result = await ocrArea(request, strip, COLUMN_DPI, 0, rulings, 1, '6');
        const words = result.words.filter((word) => (word.confidence ?? 0) >= MIN_CONFIDENCE);
        if (process.env.DEBUG_TABLE_OCR)
          console.log(
            column,
            result.words.map((word) => `${word.text}@${Math.round(word.y0)}:${word.confidence}`).join(' '),
          );
        for (const row of empty) {
          const cell = row.cells[column];
          if (!cell) continue;
          const mine = words.filter((word) => inside(cell.box, word));
          if (!mine.length) continue;
          cell.text = sortReadingOrder(buildLines(mine, { gapFactor: 1.5 }))
            .map((line) => line.text)
            .join(' ')
            .replace(/\s+/g, ' ')
            .trim();
          read.push(...mine);
        }
      } finally {
        request.renders.splice(kept);
      }
    }
  }
  return { words: read, seconds: (Date.now() - started) / 1000 };
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
