/**
 * One drawing sheet (analyzeSheetPage): the title block, sheet-number and title candidates, and the regions
 * with their callouts. The choices that need the whole set are made in sheet-set.ts.
 */

import { buildNormalizedData, findCalloutReferences } from '../assembly/normalize.ts';
import { type DrawingIndexEntry, INDEX_HEADING_RE, readDrawingIndex } from '../drawings/drawing-index.ts';
import {
  findNumberCandidates,
  GOOD_NUMBER_SCORE,
  type NumberCandidate,
} from '../drawings/number-candidates.ts';
import type { Turn } from '../drawings/reading-frame.ts';
import { engineRegionId, rowsOf } from '../drawings/region-draft.ts';
import { findRegions, type RegionDraft } from '../drawings/regions.ts';
import { fitRevisionFrames, headsRevisions } from '../drawings/revisions-and-stamps.ts';
import { attachTables, fitScheduleFrames } from '../drawings/schedule-frames.ts';
import { findTitleLines, findTitleLinesWithoutNumber, type TitleLine } from '../drawings/sheet-title.ts';
import { readTables, type TableRead, unreadGrids } from '../drawings/tables.ts';
import { findTitleBlock } from '../drawings/title-block.ts';
import { ocrSkipped } from '../errors.ts';
import {
  area,
  type Box,
  boxGap,
  centerInside,
  contains,
  fromDisplayBox,
  intersection,
  iou,
  type Line,
  toDisplayBox,
  type Word,
} from '../geometry.ts';
import type { OcrRequest } from '../io/ocr.ts';
import type { PageGeometry } from '../io/pdf.ts';
import type { Ruling } from '../io/rulings.ts';
import { buildLines } from '../layout.ts';
import type { PageIssue, Region, Revision, SheetReference, Table, TextSource } from '../model.ts';
import { readBubbleViews } from './bubble-views.ts';
import { ocrDrawing } from './drawing-ocr.ts';
import { readOutlinedGrids, readTableColumns, scanRulings } from './table-ocr.ts';
import {
  mergeOcrWords,
  ocrDrawingArea,
  ocrNumberCells,
  ocrTitleBlock,
  replaceOcrWords,
} from './title-block-ocr.ts';

export interface SheetPageResult {
  width: number;
  height: number;
  numberCandidates: NumberCandidate[];
  /**
   * Title-block lines per number candidate (the title depends on where the number is); top candidates only.
   * A sheet without candidates has one list: its title-block lines that name a kind of drawing.
   */
  titleLines: TitleLine[][];
  titleBlock: Box | null;
  regions: Region[];
  /** Index in `regions` of the drawing-area view (a sheet without titled views), titled at set level. */
  drawingAreaIndex: number | null;
  revisions: Revision[];
  usedOcr: boolean;
  /** The drawing index the sheet prints (number and title per row); empty on most sheets, absent on older results. */
  drawingIndex?: DrawingIndexEntry[];
  /**
   * A sheet placed sideways on its page: the clockwise quarter turn it was read in (its boxes are on the page as
   * displayed all the same). Absent when it was read upright.
   */
  turn?: Turn;
}

export interface SheetAnalysis {
  issue: PageIssue | null;
  sheet: SheetPageResult;
  ocr: { used: boolean; scope: 'titleBlock' | 'page'; meanConfidence: number; seconds: number } | null;
  words: Word[];
}

/**
 * A text-layer number this convincing (pattern, bottom-right, large, alone, labelled) makes the title-block
 * OCR of a sparse sheet pointless: OCR would only re-read text the layer already has, slightly differently.
 */
const CONFIDENT_TEXT_NUMBER_SCORE = 7;

/** The title block's read (text layer, then OCR when needed): the words so far and the sheet-number candidates. */
export interface TitleBlockRead {
  words: Word[];
  numberCandidates: NumberCandidate[];
  ocr: SheetAnalysis['ocr'];
  issue: PageIssue | null;
  /** The title block was read with OCR: the rest of the sheet is too (a convincing text-layer number made it pointless). */
  readsWithOcr: boolean;
}

/** How convincing a title block's read is: the score of its best sheet number (0 without one). */
export const numberScoreOf = (read: TitleBlockRead): number => read.numberCandidates[0]?.score ?? 0;

/**
 * The first step of a sheet's analysis: its sheet-number candidates from the text layer, and from the title
 * block's OCR when the layer gives no convincing number. Cheap next to the rest (no drawing-area OCR), so a
 * page can be read this far in several frames (see reading-frame.ts) before one is chosen.
 */
export const readTitleBlock = async (
  textWords: Word[],
  geometry: PageGeometry,
  pageNumber: number,
  ocrRequest: OcrRequest | null,
  rulings: readonly Ruling[] = [],
  /** OCR of the number cells only, used when the text layer yields no convincing sheet number. */
  fallbackOcr: OcrRequest | null = null,
): Promise<TitleBlockRead> => {
  let words = textWords;
  let ocr: SheetAnalysis['ocr'] = null;
  let issue: SheetAnalysis['issue'] = null;
  const { width: pageWidth, height: pageHeight } = geometry;
  let lines = buildLines(words, { gapFactor: 1.5 });
  let numberCandidates = findNumberCandidates(words, lines, pageWidth, pageHeight).slice(0, 6);
  const read = ocrRequest !== null && (numberCandidates[0]?.score ?? 0) < CONFIDENT_TEXT_NUMBER_SCORE;
  if (ocrRequest && read) {
    let result: Awaited<ReturnType<typeof ocrTitleBlock>>;
    try {
      result = await ocrTitleBlock(words, geometry, ocrRequest, rulings);
    } catch (error) {
      // The page keeps its text-layer results; the OCR failure is reported on the page.
      issue = ocrSkipped(pageNumber, error);
      result = { words, seconds: 0, confidences: [] };
    }
    words = result.words;
    lines = buildLines(words, { gapFactor: 1.5 });
    numberCandidates = findNumberCandidates(words, lines, pageWidth, pageHeight).slice(0, 6);
    const mean = result.confidences.length
      ? Math.round(
          result.confidences.reduce((sum, confidence) => sum + confidence, 0) / result.confidences.length,
        )
      : 0;
    ocr = {
      used: issue === null,
      scope: 'titleBlock',
      meanConfidence: mean,
      seconds: Math.round(result.seconds * 10) / 10,
    };
  }
  // A text-layer sheet without a convincing number may print its number outlined: read the number cells.
  if (!read && fallbackOcr && (numberCandidates[0]?.score ?? 0) < GOOD_NUMBER_SCORE) {
    try {
      const pass = await ocrNumberCells(words, geometry, fallbackOcr);
      if (pass.result) {
        words = pass.words;
        lines = buildLines(words, { gapFactor: 1.5 });
        numberCandidates = findNumberCandidates(words, lines, pageWidth, pageHeight).slice(0, 6);
        ocr = {
          used: true,
          scope: 'titleBlock',
          meanConfidence: pass.result.meanConfidence,
          seconds: Math.round(pass.result.seconds * 10) / 10,
        };
      }
    } catch (error) {
      issue = ocrSkipped(pageNumber, error);
    }
  }
  return { words, numberCandidates, ocr, issue, readsWithOcr: read };
};

/**
 * The quarter turns a page is read in besides upright. Drawing sheets are drawn landscape with the title block
 * along the right edge or across the bottom, so a portrait page whose title block was read with OCR (it has no
 * usable text layer) and gave no convincing sheet number may hold a landscape sheet placed sideways: with its
 * lettering running down the page (turned clockwise to fit, read turned back by 270) or up it (read turned 90).
 */
export const sidewaysTurns = (
  geometry: { width: number; height: number },
  upright: TitleBlockRead,
): Turn[] =>
  geometry.height > geometry.width && upright.readsWithOcr && numberScoreOf(upright) < GOOD_NUMBER_SCORE
    ? [270, 90]
    : [];

/** A scan's ruling is at least this long (points): its lettering's strokes are shorter. */
const SCAN_MIN_RULING = 20;
/** Pictures of a text-layer sheet looked at for a table's grid, largest first. */
const MAX_TABLE_PICTURES = 4;

/**
 * A picture that may be a table: at least an inch by half an inch, not most of the sheet (a scanned sheet under
 * a text layer is the sheet, not a table on it), not in the title block (a logo, a seal).
 */
const isTablePicture = (
  box: Box,
  page: { width: number; height: number },
  exclude: readonly Box[],
): boolean =>
  box.x1 - box.x0 >= 72 &&
  box.y1 - box.y0 >= 36 &&
  (box.x1 - box.x0) * (box.y1 - box.y0) <= 0.5 * page.width * page.height &&
  !exclude.some((other) => contains(other, box, 2));

/** The rest of a sheet's analysis, in the frame its title block was read in (`first`, from readTitleBlock). */
export const analyzeSheetPage = async (
  geometry: PageGeometry,
  pageNumber: number,
  ocrRequest: OcrRequest | null,
  rulings: readonly Ruling[],
  first: TitleBlockRead,
  /** The page's rulings for its tables, short ones included (cell borders); the long ones when not given. */
  tableRulings: () => Promise<readonly Ruling[]> = async () => rulings,
  /**
   * What a sheet read from its text layer may use for a table with no text to read: OCR, and the boxes of the
   * pictures the sheet places (a scanned schedule pasted on a drawing).
   */
  unread: { ocr: OcrRequest; pictures: () => Box[] } | null = null,
): Promise<SheetAnalysis> => {
  let { words, issue } = first;
  const { numberCandidates, ocr } = first;
  const request = first.readsWithOcr ? ocrRequest : null;
  const { width: pageWidth, height: pageHeight } = geometry;
  let lines = buildLines(words, { gapFactor: 1.5 });
  const best = numberCandidates[0] ?? null;
  const longRulings = rulings.filter(
    (ruling) => ruling.to - ruling.from >= Math.min(pageWidth, pageHeight) * 0.15,
  );
  const titleBlock = findTitleBlock(words, best?.box ?? null, pageWidth, pageHeight, longRulings);
  const titleLines = numberCandidates.length
    ? numberCandidates
        .slice(0, 3)
        .map((candidate, index) =>
          findTitleLines(
            lines,
            candidate,
            index === 0 ? titleBlock : findTitleBlock(words, candidate.box, pageWidth, pageHeight, rulings),
            pageWidth,
            pageHeight,
          ),
        )
    : [findTitleLinesWithoutNumber(lines, titleBlock, pageWidth, pageHeight)];
  // An outlined or scanned sheet is read whole: its notes, legends, schedules, view titles and callouts.
  if (request?.pdfiumPage) {
    try {
      const drawing = await ocrDrawing(request, request.pdfiumPage, titleBlock, longRulings, words);
      if (drawing.failure)
        issue ??= ocrSkipped(pageNumber, drawing.failure, 'OCR of part of the drawing area');
      words = mergeOcrWords(words, drawing.words);
      lines = buildLines(words, { gapFactor: 1.5 });
      if (ocr) ocr.seconds = Math.round((ocr.seconds + drawing.seconds) * 10) / 10;
    } catch (error) {
      issue ??= ocrSkipped(pageNumber, error, 'OCR of the drawing area');
    }
  }
  // Any sheet may print the set's index (under `DRAWINGS:`, `SHEET LIST`, or no heading at all): its rows are
  // looked for on every sheet, and the set keeps a list only if it names the set's sheets (setDrawingIndex).
  let drawingIndex = readDrawingIndex(words, titleBlock);
  // An outlined or scanned sheet titled as an index whose rows the whole read missed (tesseract's layout analysis
  // drops a narrow column of short numbers) is read again in column strips.
  if (drawingIndex.length === 0 && lines.some((line) => INDEX_HEADING_RE.test(line.text))) {
    if (request && titleBlock) {
      try {
        const area = await ocrDrawingArea(request, titleBlock, rulings);
        drawingIndex = readDrawingIndex(area.words, titleBlock);
        if (ocr) ocr.seconds = Math.round((ocr.seconds + area.seconds) * 10) / 10;
      } catch (error) {
        issue = ocrSkipped(pageNumber, error, 'OCR of the drawing index');
      }
    }
  }
  // An outlined sheet's view titles are read beside its bubbles (its drawing area has no text to read them from).
  let bubbleViews: RegionDraft[] = [];
  if (request) {
    try {
      const read = await readBubbleViews(request, titleBlock);
      bubbleViews = read.views;
      if (ocr) ocr.seconds = Math.round((ocr.seconds + read.seconds) * 10) / 10;
    } catch (error) {
      issue ??= ocrSkipped(pageNumber, error, 'OCR of the view titles');
    }
  }
  const drafts = findRegions(lines, words, titleBlock, pageWidth, pageHeight, bubbleViews);
  fitRevisionFrames(drafts, rulings);
  fitScheduleFrames(drafts, rulings);
  const gridRulings = await tableRulings().catch(() => rulings);
  const exclude = titleBlock ? [titleBlock] : [];
  // A table may sit in the title block's strip (a revision block, a site information block): the title block's
  // grids are read too, and a table kept there when it is not the title block's own grid (the one printing the
  // sheet's number or title) and is named (a title row, or a line over its frame), as key-value boxes
  // (`DRAWN BY | JMW`) are not. A revision block (headings naming a revision's number, description and date)
  // is a table wherever it is printed.
  const identity = [best?.box, ...(titleLines[0] ?? [])].filter((box): box is Box => Boolean(box));
  const ofContent = (table: TableRead): boolean =>
    !titleBlock ||
    intersection(table.box, titleBlock) < 0.5 * area(table.box) ||
    (table.title !== null && !identity.some((box) => centerInside(table.box, box))) ||
    headsRevisions(table.header);
  const readContentTables = (sourceRulings: readonly Ruling[]): TableRead[] =>
    readTables(words, sourceRulings, geometry).filter(ofContent);
  const tables = readContentTables(gridRulings);
  // A sheet read by OCR may print its grids as pixels (a scan, or a scanned table pasted on a drawing): their
  // rulings are found in a render, and read apart from the paths (which would join them to other linework).
  let pixelRulings: Ruling[] = [];
  if (request?.pdfiumPage) {
    try {
      const area = { x0: 0, y0: 0, x1: pageWidth, y1: pageHeight };
      pixelRulings = scanRulings(request, request.pdfiumPage, area, SCAN_MIN_RULING);
      tables.push(
        ...readContentTables(pixelRulings).filter(
          (table) => !tables.some((drawn) => iou(drawn.box, table.box) > 0.3),
        ),
      );
    } catch (error) {
      issue ??= ocrSkipped(pageNumber, error, "reading a scan's table lines");
    }
  }
  // A ruled grid with nothing inside to read is a table OCR has not read yet: on a sheet read from its text layer,
  // its lettering drawn as outlines (a CAD font exported as strokes) or the table a picture pasted on the drawing
  // (its grid found in the picture's pixels); on a sheet read by OCR, a table the whole sheet's read missed
  // (small lettering packed in cells). OCR reads such a grid alone, then its columns as any table read by OCR.
  const unreadTables: TableRead[] = [];
  const gridOcr = request ?? unread?.ocr ?? null;
  if (gridOcr?.pdfiumPage) {
    const pdfiumPage = gridOcr.pdfiumPage;
    try {
      const pictureRulings = request
        ? pixelRulings
        : (unread?.pictures() ?? [])
            .filter((box) => isTablePicture(box, geometry, exclude))
            .sort((a, b) => area(b) - area(a))
            .slice(0, MAX_TABLE_PICTURES)
            .flatMap((box) => scanRulings(gridOcr, pdfiumPage, box, SCAN_MIN_RULING));
      // A grid drawn as paths is also in a render's pixels: each is read once.
      const seen: Box[] = tables.map((table) => table.box);
      const sources = [gridRulings, pictureRulings].map((sourceRulings) => {
        const frames = unreadGrids(words, sourceRulings, geometry).filter(
          (frame) => !seen.some((other) => iou(other, frame) > 0.3),
        );
        seen.push(...frames);
        return { rulings: sourceRulings, frames };
      });
      const found: { words: Word[]; areas: Box[] } = { words: [], areas: [] };
      for (const source of sources) {
        if (!source.frames.length) continue;
        const read = await readOutlinedGrids(gridOcr, pdfiumPage, source.frames, source.rulings);
        found.words.push(...read.words);
        found.areas.push(...read.areas);
        if (ocr) ocr.seconds = Math.round((ocr.seconds + read.seconds) * 10) / 10;
      }
      if (found.words.length) {
        words = replaceOcrWords(words, found);
        lines = buildLines(words, { gapFactor: 1.5 });
        for (const source of sources)
          unreadTables.push(
            ...readContentTables(source.rulings).filter((table) =>
              source.frames.some((frame) => iou(frame, table.box) > 0.5),
            ),
          );
        tables.push(...unreadTables);
      }
    } catch (error) {
      issue ??= ocrSkipped(pageNumber, error, 'OCR of a table with nothing read inside');
    }
  }
  const columnsOcr = request ?? (unreadTables.length ? gridOcr : null);
  if (columnsOcr?.pdfiumPage && tables.length) {
    try {
      const filled = await readTableColumns(
        columnsOcr,
        columnsOcr.pdfiumPage,
        request ? tables : unreadTables,
      );
      if (filled.words.length) {
        words = replaceOcrWords(words, filled);
        lines = buildLines(words, { gapFactor: 1.5 });
      }
      if (ocr) ocr.seconds = Math.round((ocr.seconds + filled.seconds) * 10) / 10;
    } catch (error) {
      issue ??= ocrSkipped(pageNumber, error, "OCR of a table's columns");
    }
  }
  attachTables(drafts, tables, lines);
  const sheetNumber = best?.printed ?? null;
  const revisions = drafts.flatMap((draft) => draft.revisions ?? []);
  const callouts = findCalloutReferences(
    words.filter((word) => !(titleBlock && centerInside(titleBlock, word))),
    null,
  );
  const calloutsByDraft = assignCallouts(drafts, callouts);
  const regions = drafts.map((draft, index) =>
    toRegion(draft, index, pageNumber, sheetNumber, calloutsByDraft[index] ?? []),
  );
  return {
    issue,
    sheet: {
      width: pageWidth,
      height: pageHeight,
      numberCandidates,
      titleLines,
      titleBlock,
      regions,
      drawingAreaIndex: drafts.some((draft) => draft.drawingArea)
        ? drafts.findIndex((draft) => draft.drawingArea)
        : null,
      revisions,
      usedOcr: ocr !== null,
      drawingIndex,
    },
    ocr,
    words,
  };
};

const textSourceOf = (lines: readonly Line[]): TextSource => {
  const sources = new Set(lines.flatMap((line) => line.words.map((word) => word.source)));
  if (sources.size === 0) return 'none';
  if (sources.size > 1) return 'mixed';
  return sources.has('ocr') ? 'ocr' : 'textLayer';
};

/**
 * Callouts per region draft: each goes to the views whose box holds it; one in no region at all (section
 * heads and elevation markers at the edge of a drawing, outside the estimated view extent) goes to the
 * nearest view. Callouts inside notes, legends or the title block stay out of the views.
 */
const assignCallouts = (
  drafts: readonly RegionDraft[],
  callouts: readonly SheetReference[],
): SheetReference[][] => {
  const out: SheetReference[][] = drafts.map(() => []);
  const views = drafts.filter((draft) => draft.regionType === 'view');
  for (const callout of callouts) {
    if (!callout.displayBox) continue;
    const box = fromDisplayBox(callout.displayBox);
    const holders = drafts.filter((draft) => centerInside(draft.box, box));
    const holdingViews = holders.filter((draft) => draft.regionType === 'view');
    if (holdingViews.length) {
      for (const view of holdingViews) out[drafts.indexOf(view)]?.push(callout);
      continue;
    }
    if (holders.length) continue;
    let nearest: RegionDraft | null = null;
    for (const view of views)
      if (!nearest || boxGap(view.box, box) < boxGap(nearest.box, box)) nearest = view;
    if (nearest) out[drafts.indexOf(nearest)]?.push(callout);
  }
  return out;
};

const toRegion = (
  draft: RegionDraft,
  index: number,
  pageNumber: number,
  sheetNumber: string | null,
  callouts: SheetReference[],
): Region => {
  const text = regionText(draft.lines);
  const ocrWords = draft.lines.flatMap((line) => line.words).filter((word) => word.source === 'ocr');
  return {
    regionId: engineRegionId(pageNumber, draft.regionType, index),
    pageNumber,
    sheetNumber,
    label: draft.label,
    regionType: draft.regionType,
    drawingType: draft.drawingType,
    text,
    displayBox: toDisplayBox(draft.box),
    titleDisplayBox: draft.titleBox ? toDisplayBox(draft.titleBox) : null,
    textSource: textSourceOf(draft.lines),
    ocrConfidence: ocrWords.length
      ? Math.round(ocrWords.reduce((sum, word) => sum + (word.confidence ?? 0), 0) / ocrWords.length)
      : null,
    ...(draft.table ? { table: tableOf(draft.table) } : {}),
    normalizedData: buildNormalizedData({
      text,
      sheetNumber,
      viewNumber: draft.viewNumber ?? null,
      viewTitle: draft.viewTitle ?? null,
      scaleText: draft.scaleText ?? null,
      callouts,
      keynotes: draft.keynotes ?? [],
      schedule: draft.schedule ?? null,
      revisions: draft.revisions ?? [],
    }),
  };
};

const tableOf = (table: TableRead): Table => ({
  title: table.title,
  displayBox: toDisplayBox(table.box),
  columnCount: table.columnCount,
  header: table.header,
  rows: table.rows.map((row) => ({
    displayBox: toDisplayBox(row.box),
    cells: row.cells.map((cell) => ({ text: cell.text, displayBox: toDisplayBox(cell.box) })),
    divider: row.divider,
  })),
});

/** Region text in reading order: rows top to bottom, cells left to right. */
const regionText = (lines: readonly Line[]): string => {
  const text = rowsOf(lines.filter((line) => line.dir === 0))
    .map((row) => row.map((line) => line.text).join('  '))
    .join('\n');
  const rotated = lines.filter((line) => line.dir !== 0).map((line) => line.text);
  return [text, ...rotated].filter(Boolean).join('\n');
};
