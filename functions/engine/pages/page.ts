/**
 * One page → a PageResult: geometry, text-layer lines, spec evidence and, on drawing-sized pages, the sheet
 * (title block, sheet number, regions). PageResults are plain data so they can cross worker threads and be
 * assembled into a document later (spec sections span page batches).
 */

import { GOOD_NUMBER_SCORE } from '../drawings/number-candidates.ts';
import {
  boxToDisplay,
  rulingToTurned,
  sheetToDisplay,
  type Turn,
  turnGeometry,
  wordToTurned,
} from '../drawings/reading-frame.ts';
import { printsTitleBlock } from '../drawings/title-block.ts';
import { ExtractionError, isExtractionError, ocrSkipped } from '../errors.ts';
import { type Box, intersection, type Line, type Word } from '../geometry.ts';
import { type OcrRequest, ocrPage } from '../io/ocr.ts';
import { type OpenedPdf, type PageGeometry, type PdfJsPage, withTimeout } from '../io/pdf.ts';
import { joinSegments, type Ruling, readPdfiumObjects, readRulings } from '../io/rulings.ts';
import { readPdfiumWords } from '../io/text.ts';
import { buildLines } from '../layout.ts';
import type { ExtractionLimits } from '../limits.ts';
import type { PageIssue } from '../model.ts';
import { type SpecPageSignals, specSignals, type TextLine } from '../specifications/spec-signals.ts';
import {
  analyzeSheetPage,
  numberScoreOf,
  readTitleBlock,
  type SheetPageResult,
  sidewaysTurns,
} from './sheets.ts';

export interface PageResult {
  pageNumber: number;
  width: number;
  height: number;
  rotation: number;
  hasTextLayer: boolean;
  charCount: number;
  /** Drawing-sized page (larger than legal paper). */
  isLargePage: boolean;
  /** Horizontal text lines in reading order (text-layer, or OCR when the page was OCR'd in full). */
  lines: TextLine[];
  spec: SpecPageSignals;
  sheet: SheetPageResult | null;
  ocr: { used: boolean; scope: 'titleBlock' | 'page'; meanConfidence: number; seconds: number } | null;
  issue: PageIssue | null;
}

export type OcrMode = boolean | 'auto';

export interface PageOptions {
  limits: ExtractionLimits;
  ocr: OcrMode;
  /** Shared budget: number of pages OCR'd so far in this call (mutated). */
  ocrBudget: { pagesLeft: number };
}

const LEGAL_AREA = 612 * 1008;
/** A page with more drawing operators (pdf.js) or page objects (PDFium) than this is read without rulings. */
const MAX_PATHS = 2_000_000;

/** A frame a sheet is read in, with what the page gives in it. */
interface SheetFrame {
  turn: Turn;
  geometry: PageGeometry;
  words: Word[];
  rulings: Ruling[];
  /** The page's short rulings too (cell borders), read on first use, in this frame. */
  cellRulings: () => Promise<Ruling[]>;
  /** Rulings for tables (joined row by row), read on first use, in this frame. */
  tableRulings: () => Promise<Ruling[]>;
  ocrRequest: OcrRequest | null;
}

/** The shortest segment any use of a sheet's rulings reads (tables' cell borders), in points. */
const MIN_SEGMENT = 8;

export const isLargePageSize = (width: number, height: number): boolean =>
  Math.max(width, height) > 1100 || width * height > LEGAL_AREA * 1.15;

const toTextLine = (line: Line): TextLine => ({
  text: line.text,
  x0: line.x0,
  y0: line.y0,
  x1: line.x1,
  y1: line.y1,
  size: line.size,
});

export const processPage = async (
  opened: Pick<OpenedPdf, 'pdfium' | 'pdfjsDocument'>,
  pageNumber: number,
  options: PageOptions,
): Promise<PageResult> => {
  const { limits } = options;
  let geometry: PageGeometry = { width: 612, height: 792, rotation: 0, transform: [1, 0, 0, -1, 0, 792] };
  const started = Date.now();
  // The page's reads that can stop early (the drawing area's OCR) stop by then: see processPage's timeout.
  const deadline = started + limits.pageTimeoutMs;
  // pdf.js's parse of the file and its page are loaded only for what still reads them (the paths of a sheet
  // OCR reads, OCR's title-block renders): a text page, and a sheet read from its text layer, by PDFium alone.
  let pdfjsPage: Promise<PdfJsPage> | null = null;
  const loadPdfjsPage = (): Promise<PdfJsPage> => {
    pdfjsPage ??= opened
      .pdfjsDocument()
      .then(async ({ doc, pdfjs }) => ({ page: await doc.getPage(pageNumber), pdfjs }));
    return pdfjsPage;
  };
  const run = async (): Promise<PageResult> => {
    const pdfiumPage = opened.pdfium.page(pageNumber);
    try {
      geometry = pdfiumPage.geometry;
      const { words, charCount } = readPdfiumWords(pdfiumPage, limits.maxTextItemsPerPage);
      // PDFium reads the text in one synchronous call that no timer can interrupt: the budget is checked after.
      if (Date.now() - started >= limits.pageTimeoutMs) throw pageTimeout(pageNumber, limits.pageTimeoutMs);
      const isLargePage = isLargePageSize(geometry.width, geometry.height);
      let pageWords: Word[] = words;
      let ocr: PageResult['ocr'] = null;
      const hasTextLayer = charCount > 0;
      // A letter page turned sideways with sparse text may be a sheet shrunk to fit; without any text, only OCR
      // can tell (and read it): with OCR off or spent, such a page is not analyzed as a sheet.
      const canOcr = options.ocr !== false && options.ocrBudget.pagesLeft > 0;
      const reducedSheet = isReducedSheet(words, geometry) && (words.length > 0 || canOcr);
      const wantsOcr =
        options.ocr === true ||
        (options.ocr === 'auto' && needsOcr(words, charCount, isLargePage || reducedSheet, geometry));
      let sheet: SheetPageResult | null = null;
      let pageIssue: PageIssue | null = null;
      /** The quarter turn the sheet was read in (its words in `pageWords` are in that frame). */
      let readingTurn: Turn = 0;
      if (isLargePage || reducedSheet) {
        let ocrRequest: OcrRequest | null = null;
        // A sheet OCR will read is parsed by pdf.js for its renders anyway: its rulings come from pdf.js's
        // operator list, as the OCR passes were tuned on (PDFium keeps no page object for a path neither
        // filled nor stroked, and such a rectangle decides an as-built sheet's title block). Other sheets'
        // rulings come from PDFium's page objects, and pdf.js parses nothing of them unless OCR is needed.
        const ocrWillRead = wantsOcr && options.ocrBudget.pagesLeft > 0;
        // PDFium's page objects are walked once, on first use, for every length and join the sheet needs and
        // for its pictures.
        let objectsRead: ReturnType<typeof readPdfiumObjects> | undefined;
        const pdfiumObjects = (): { segments: Ruling[]; images: Box[] } => {
          if (objectsRead === undefined) objectsRead = readPdfiumObjects(pdfiumPage, MIN_SEGMENT, MAX_PATHS);
          return objectsRead ?? { segments: [], images: [] };
        };
        const pdfiumSegments = (): Ruling[] => pdfiumObjects().segments;
        const sheetRulings = (minLength: number): Promise<Ruling[]> =>
          ocrWillRead
            ? loadPdfjsPage().then(({ page, pdfjs }) =>
                readRulings(page, pdfjs, geometry, minLength, MAX_PATHS),
              )
            : Promise.resolve(joinSegments(pdfiumSegments(), minLength));
        // Short rulings (cell borders) are read once, on first use: the number cells and the title block use them.
        let cellRulingsRead: Promise<Ruling[]> | null = null;
        const cellRulings = (): Promise<Ruling[]> => {
          cellRulingsRead ??= sheetRulings(10);
          return cellRulingsRead;
        };
        // A table's grid, drawn cell by cell at heights a fraction of a point apart, is joined row by row; from
        // PDFium's page objects on every sheet (a path neither filled nor stroked draws no table line).
        let tableRulingsRead: Promise<Ruling[]> | null = null;
        const tableRulings = (): Promise<Ruling[]> => {
          tableRulingsRead ??= Promise.resolve().then(() =>
            joinSegments(pdfiumSegments(), MIN_SEGMENT, true),
          );
          return tableRulingsRead;
        };
        if (ocrWillRead) {
          ocrRequest = {
            pdfjsPage: loadPdfjsPage,
            geometry,
            limits,
            deadline,
            pdfiumPage,
            cellRulings,
            ...(reducedSheet ? { dpi: reducedSheetDpi(geometry) } : {}),
          };
        }
        const rulings = await sheetRulings(Math.min(geometry.width, geometry.height) * 0.15).catch(() => []);
        const fallbackOcr: OcrRequest | null =
          !ocrRequest && options.ocr === 'auto' && options.ocrBudget.pagesLeft > 0
            ? {
                pdfjsPage: loadPdfjsPage,
                geometry,
                limits,
                cellRulings,
              }
            : null;
        // The page as displayed, and (for a sheet that may stand sideways on it) turned by a quarter either way.
        const frameOf = (turn: Turn): SheetFrame => {
          if (turn === 0) return { turn, geometry, words, rulings, cellRulings, tableRulings, ocrRequest };
          const turned = turnGeometry(geometry, turn);
          // The page's cell borders, read once (cellRulings), turned once on first use.
          let turnedCells: Promise<Ruling[]> | null = null;
          const turnedCellRulings = (): Promise<Ruling[]> => {
            turnedCells ??= cellRulings().then((read) =>
              read.map((ruling) => rulingToTurned(ruling, geometry, turn)),
            );
            return turnedCells;
          };
          return {
            turn,
            geometry: turned,
            words: words.map((word) => wordToTurned(word, geometry, turn)),
            rulings: rulings.map((ruling) => rulingToTurned(ruling, geometry, turn)),
            cellRulings: turnedCellRulings,
            tableRulings: () =>
              tableRulings().then((read) => read.map((ruling) => rulingToTurned(ruling, geometry, turn))),
            ocrRequest: ocrRequest && {
              ...ocrRequest,
              geometry: turned,
              turn,
              renders: [],
              cellRulings: turnedCellRulings,
            },
          };
        };
        let frame = frameOf(0);
        let titleBlockRead = await readTitleBlock(
          words,
          geometry,
          pageNumber,
          ocrRequest,
          rulings,
          fallbackOcr,
        );
        for (const turn of sidewaysTurns(geometry, titleBlockRead)) {
          const turned = frameOf(turn);
          const read = await readTitleBlock(
            turned.words,
            turned.geometry,
            pageNumber,
            turned.ocrRequest,
            turned.rulings,
          );
          // Every read counts in the page's OCR time, the one kept or not.
          const seconds = (read.ocr?.seconds ?? 0) + (titleBlockRead.ocr?.seconds ?? 0);
          // A turned frame is taken only for a convincing number: a portrait sheet that really is portrait
          // reads as noise turned, and must not be read whole that way for a stray reading.
          const better =
            numberScoreOf(read) >= GOOD_NUMBER_SCORE && numberScoreOf(read) > numberScoreOf(titleBlockRead);
          if (better) {
            frame = turned;
            titleBlockRead = read;
          }
          if (titleBlockRead.ocr) titleBlockRead.ocr.seconds = Math.round(seconds * 10) / 10;
          if (numberScoreOf(titleBlockRead) >= GOOD_NUMBER_SCORE) break;
        }
        // A sheet read from its text layer reads a table with nothing in the text layer by OCR (analyzeSheetPage).
        const tableOcr = ocrRequest ?? fallbackOcr;
        const analyzed = await analyzeSheetPage(
          frame.geometry,
          pageNumber,
          frame.ocrRequest,
          frame.rulings,
          titleBlockRead,
          frame.tableRulings,
          tableOcr && frame.turn === 0
            ? {
                ocr: { ...tableOcr, pdfiumPage, deadline, renders: [] },
                pictures: () => pdfiumObjects().images,
              }
            : null,
        );
        readingTurn = frame.turn;
        // The budget counts pages OCR actually read (a sheet with a convincing text-layer number is not).
        if (analyzed.ocr?.used) options.ocrBudget.pagesLeft--;
        sheet = sheetToDisplay(analyzed.sheet, geometry, readingTurn);
        pageIssue = analyzed.issue;
        ocr = analyzed.ocr;
        pageWords = analyzed.words;
        // A scan on a sideways letter page where OCR found no sheet number may be no drawing at all (a
        // brochure, a form): its whole text is read, as a scanned page's is, so that it can be searched.
        if (reducedSheet && !hasTextLayer && analyzed.ocr?.used && sheet?.numberCandidates.length === 0) {
          try {
            const whole = await ocrPage({ pdfjsPage: loadPdfjsPage, geometry, limits }, 'page');
            pageWords = [
              ...pageWords,
              ...whole.words.filter((word) => !pageWords.some((read) => intersection(read, word) > 0)),
            ];
            ocr = { ...analyzed.ocr, seconds: Math.round((analyzed.ocr.seconds + whole.seconds) * 10) / 10 };
          } catch (error) {
            pageIssue ??= ocrSkipped(pageNumber, error, 'OCR of the whole page');
          }
        }
      } else if (wantsOcr && options.ocrBudget.pagesLeft > 0 && charCount < 20) {
        options.ocrBudget.pagesLeft--;
        try {
          const result = await ocrPage({ pdfjsPage: loadPdfjsPage, geometry, limits }, 'page');
          pageWords = [...words, ...result.words];
          ocr = { used: true, scope: 'page', meanConfidence: result.meanConfidence, seconds: result.seconds };
        } catch (error) {
          pageIssue = ocrSkipped(pageNumber, error);
        }
      }
      // Lines are built in the frame the sheet was read in (its lettering across), and placed on the page.
      const lines = buildLines(
        pageWords.filter((word) => word.dir === 0),
        { gapFactor: isLargePage ? 1.5 : 4.5 },
      ).map((line) => boxToDisplay(toTextLine(line), geometry, readingTurn));
      return {
        pageNumber,
        width: geometry.width,
        height: geometry.height,
        rotation: geometry.rotation,
        hasTextLayer,
        charCount,
        isLargePage,
        lines,
        spec: specSignals(isLargePage ? [] : lines, geometry.width, geometry.height),
        sheet,
        ocr,
        issue: pageIssue,
      };
    } finally {
      pdfiumPage.close();
      if (pdfjsPage) await pdfjsPage.then(({ page }) => page.cleanup()).catch(() => undefined);
    }
  };
  try {
    return await withTimeout(run(), limits.pageTimeoutMs, () =>
      pageTimeout(pageNumber, limits.pageTimeoutMs),
    );
  } catch (error) {
    const code = isExtractionError(error) ? error.code : 'pdf_malformed';
    const message = error instanceof Error ? error.message : String(error);
    return failedPage(pageNumber, geometry, { pageNumber, code, message });
  }
};

const pageTimeout = (pageNumber: number, ms: number): ExtractionError =>
  new ExtractionError('page_timeout', `Page ${pageNumber} took more than ${ms} ms.`);

/**
 * A drawing sheet printed onto a letter or legal page (an office print or scan of a sheet, a set plotted at
 * letter size): landscape, with next to nothing in the text layer (a typed markup at most), or with a title
 * block in its text. Read as a sheet, at a resolution that makes up for the reduction.
 */
const isReducedSheet = (words: readonly Word[], geometry: PageGeometry): boolean =>
  !isLargePageSize(geometry.width, geometry.height) &&
  geometry.width > geometry.height &&
  (isSparseText(words, geometry) ||
    printsTitleBlock(buildLines(words, { gapFactor: 1.5 }), geometry.width, geometry.height));

/** Title-block reads at 300 dpi scaled up by the reduction against an 11 x 17 in sheet, at most 600 dpi. */
const reducedSheetDpi = (geometry: PageGeometry): number =>
  Math.min(600, Math.round((300 * 1224) / Math.max(geometry.width, geometry.height)));

/** Drawing pages whose text layer has no usable text (outlined or scanned sheets) need OCR. */
const needsOcr = (
  words: readonly Word[],
  charCount: number,
  isLargePage: boolean,
  geometry: PageGeometry,
): boolean => {
  if (charCount < 20) return true;
  if (!isLargePage) return false;
  return isSparseText(words, geometry);
};

/** Sheets whose few text items are scattered OCR garbage or only a stamp: too little text for their size. */
const isSparseText = (words: readonly Word[], geometry: PageGeometry): boolean => {
  const pageArea = (geometry.width * geometry.height) / (72 * 72);
  // Control characters (fonts without a usable encoding) are not text.
  const printed = words.filter((word) => /[\p{L}\p{N}]/u.test(word.text)).length;
  return printed < 15 + pageArea * 0.15;
};

export const failedPage = (
  pageNumber: number,
  geometry: Pick<PageGeometry, 'width' | 'height' | 'rotation'>,
  issue: PageIssue,
): PageResult => ({
  pageNumber,
  width: geometry.width,
  height: geometry.height,
  rotation: geometry.rotation,
  hasTextLayer: false,
  charCount: 0,
  isLargePage: isLargePageSize(geometry.width, geometry.height),
  lines: [],
  spec: specSignals([], geometry.width, geometry.height),
  sheet: null,
  ocr: null,
  issue,
});
