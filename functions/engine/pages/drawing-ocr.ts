/**
 * The whole drawing area of a sheet without a usable text layer (outlined lettering, a scan), read by OCR so
 * that its notes, legends, schedules, keynotes, view titles and callouts are words like a text layer's: the
 * title block has been read by then (title-block-ocr.ts); this reads the rest of the sheet, in tiles.
 *
 * - Tiles overlap by OVERLAP points, more than a word of drawing lettering is long, and each word is kept by
 *   the one tile whose core (the tile less half the overlap on each inner side) holds its centre: a word cut
 *   by one tile's edge is whole in its neighbour, and no word is read twice.
 * - The resolution follows the sheet's lettering: the smallest lettering read so far (title-block fields,
 *   view titles) at about CAP_PIXELS pixels high, between MIN_DPI and MAX_DPI; 200 dpi without any.
 * - Long rulings are painted out (borders and grid lines make tesseract drop what touches them).
 * - Words read with less than MIN_CONFIDENCE, and words of marks only, are linework read as letters (hatching,
 *   dimension ticks, symbols): dropped.
 * - The area is rendered once, by PDFium (title-block reads keep pdf.js's pixels, which their passes were tuned
 *   on; PDFium draws a page of a million operators in a fraction of pdf.js's time), and the tiles cut from it.
 * - No tile starts after half the page's time (DEADLINE_SHARE), nor without time left for two tiles as slow as
 *   the slowest so far: what was read is kept, and the page's other results with it; the failure is returned
 *   for the page's issue.
 */
import { ExtractionError, isExtractionError } from '../errors.ts';
import { type Box, centerInside, centerX, centerY, type Word } from '../geometry.ts';
import { type OcrRequest, type OcrResult, ocrArea, summarize, withPdfiumRender } from '../io/ocr.ts';
import type { PdfiumPage } from '../io/pdfium.ts';
import type { Ruling } from '../io/rulings.ts';

/** Overlap of neighbouring tiles, in points (1.5 in: longer than nearly every word of a drawing's notes). */
const OVERLAP = 108;
/** Largest tile, in pixels at the read's resolution (tesseract's cost grows with pixels; so does memory). */
const MAX_TILE_PIXELS = 12_000_000;
/** Pixels the smallest lettering should be high (2977J sheets 6-7: more words read at 60 confidence and more at 150 dpi than at 200, in less time). */
const CAP_PIXELS = 18;
const MIN_DPI = 150;
const MAX_DPI = 200;
const DEFAULT_DPI = 200;
/**
 * Share of the page's time the drawing read may start tiles in: the title block's results are read by then,
 * and a page that runs out of time loses them too (a tile under way is not interrupted).
 */
const DEADLINE_SHARE = 0.5;
/** Time kept free after the drawing read for the rest of the page (regions, views, callouts). */
const TILE_MARGIN_MS = 5_000;
/** Words OCR read with less confidence than this are linework more often than lettering. */
export const MIN_CONFIDENCE = 60;

/** A tile and its core: words whose centre lies in the core belong to this tile. */
export interface Tile {
  box: Box;
  core: Box;
}

/**
 * Tiles covering `area` at `dpi`, each at most `maxPixels`, overlapping by `overlap` points; the cores of the
 * tiles cover the area exactly once.
 */
export const planTiles = (area: Box, dpi: number, maxPixels = MAX_TILE_PIXELS, overlap = OVERLAP): Tile[] => {
  const scale = dpi / 72;
  const width = area.x1 - area.x0;
  const height = area.y1 - area.y0;
  if (width <= 0 || height <= 0) return [];
  // The most points a tile side may span, for a square tile of maxPixels.
  const side = Math.sqrt(maxPixels) / scale;
  const columns = Math.max(1, Math.ceil(width / Math.max(1, side - overlap)));
  const rows = Math.max(1, Math.ceil(height / Math.max(1, side - overlap)));
  const stepX = width / columns;
  const stepY = height / rows;
  const tiles: Tile[] = [];
  for (let row = 0; row < rows; row++) {
    for (let column = 0; column < columns; column++) {
      const core = {
        x0: area.x0 + column * stepX,
        y0: area.y0 + row * stepY,
        x1: column === columns - 1 ? area.x1 : area.x0 + (column + 1) * stepX,
        y1: row === rows - 1 ? area.y1 : area.y0 + (row + 1) * stepY,
      };
      tiles.push({
        core,
        box: {
          x0: Math.max(area.x0, core.x0 - overlap / 2),
          y0: Math.max(area.y0, core.y0 - overlap / 2),
          x1: Math.min(area.x1, core.x1 + overlap / 2),
          y1: Math.min(area.y1, core.y1 + overlap / 2),
        },
      });
    }
  }
  return tiles;
};

/** The resolution at which the smallest lettering read so far is about CAP_PIXELS high. */
export const drawingDpi = (readWords: readonly Word[]): number => {
  const sizes = readWords
    .filter(
      (word) => word.source === 'ocr' && (word.confidence ?? 0) >= MIN_CONFIDENCE && word.text.length >= 2,
    )
    .map((word) => word.size)
    .sort((a, b) => a - b);
  // The tenth percentile: the small lettering of notes, not one misread speck.
  const small = sizes[Math.floor(sizes.length * 0.1)];
  if (!small) return DEFAULT_DPI;
  return Math.round(Math.min(MAX_DPI, Math.max(MIN_DPI, (CAP_PIXELS * 72) / small)));
};

/** A word of lettering: confident enough, and holding a letter or a digit. */
export const isLettering = (word: Word): boolean =>
  (word.confidence ?? 0) >= MIN_CONFIDENCE && /[\p{L}\p{N}]/u.test(word.text);

const inside = (box: Box, word: Word): boolean =>
  centerX(word) >= box.x0 && centerX(word) < box.x1 && centerY(word) >= box.y0 && centerY(word) < box.y1;

/**
 * OCR of a sheet's area outside its title block, tile by tile (see the module comment), the area rendered once
 * by PDFium (`pdfiumPage`). `read` are the words read so far (their lettering sets the resolution; words already
 * read are not read again by the caller's merge). Returns the words of lettering with the time spent, and the
 * failure that cut the read short, if any (the words read before it are kept).
 */
export const ocrDrawing = async (
  request: OcrRequest,
  pdfiumPage: PdfiumPage,
  titleBlock: Box | null,
  rulings: readonly Ruling[],
  read: readonly Word[],
): Promise<OcrResult & { failure: ExtractionError | null }> => {
  const started = Date.now();
  const { width, height } = request.geometry;
  const dpi = drawingDpi(read);
  const area = drawingAreaOf(width, height, titleBlock);
  const pageTime = request.limits.pageTimeoutMs;
  const deadline = request.deadline ?? started + pageTime;
  const words: Word[] = [];
  let failure: ExtractionError | null = null;
  // The tiles are cut from one render of the area: this read's alone, its memory goes with it.
  let slowestTile = 0;
  await withPdfiumRender(request, pdfiumPage, area, dpi, async () => {
    for (const tile of planTiles(area, dpi)) {
      // A tile starts only in the first half of the page's time, and with time left for two tiles as slow as
      // the slowest so far and a margin: a tile under way is not interrupted.
      const left = deadline - Date.now();
      if (left < pageTime * (1 - DEADLINE_SHARE) || left < 2 * slowestTile + TILE_MARGIN_MS) {
        failure = new ExtractionError(
          'page_timeout',
          `the page's time ran short after ${words.length} words (${Math.round((Date.now() - started) / 1000)} s)`,
        );
        break;
      }
      const tileStarted = Date.now();
      let result: OcrResult;
      try {
        result = await ocrArea(request, tile.box, dpi, 0, rulings);
      } catch (error) {
        // OCR that ran out of time (or was stopped with its batch) leaves no time for the next tile.
        if (!isExtractionError(error) || error.code !== 'page_timeout') throw error;
        failure = error;
        break;
      }
      slowestTile = Math.max(slowestTile, Date.now() - tileStarted);
      words.push(
        ...result.words.filter(
          (word) =>
            isLettering(word) && inside(tile.core, word) && !(titleBlock && centerInside(titleBlock, word)),
        ),
      );
    }
  });
  if (failure && words.length === 0) throw failure;
  return { ...summarize(words, started), failure };
};

/**
 * The part of the sheet the title block leaves: above a bottom band, left of a right strip (the larger of the
 * two when the block is a corner box, whose neighbours are read by the other part's tiles anyway), else the
 * whole sheet.
 */
export const drawingAreaOf = (width: number, height: number, titleBlock: Box | null): Box => {
  const page = { x0: 0, y0: 0, x1: width, y1: height };
  if (!titleBlock) return page;
  const above = { ...page, y1: titleBlock.y0 };
  const left = { ...page, x1: titleBlock.x0 };
  const blockWidth = titleBlock.x1 - titleBlock.x0;
  const blockHeight = titleBlock.y1 - titleBlock.y0;
  // A strip or band spans most of the page one way: the rest is the drawing area.
  if (blockHeight >= 0.6 * height) return left;
  if (blockWidth >= 0.6 * width) return above;
  // A corner box: the whole sheet (the box's words are read already and merged away by the caller).
  return page;
};
