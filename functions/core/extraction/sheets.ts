/**
 * Drawing sheets: per page (analyzeSheetPage) the title block, sheet-number and title candidates and the
 * regions; per document (assembleSheets) the choices that need the whole set — the sheet-number position
 * the set uses, title lines repeated on every sheet (project name, firm) that are not titles, and the
 * discipline of set-specific prefixes.
 */

import { isExtractionError } from './errors.ts';
import {
  type Box,
  boxGap,
  boxOf,
  centerInside,
  centerX,
  centerY,
  clampBox,
  expand,
  fromDisplayBox,
  intersection,
  type Line,
  toDisplayBox,
  type Word,
} from './geometry.ts';
import { buildLines } from './layout.ts';
import type { PageIssue, Region, Revision, Sheet, SheetReference, TextSource } from './model.ts';
import { buildNormalizedData, findCalloutReferences } from './normalize.ts';
import { cellAt, type OcrRequest, type OcrResult, ocrArea, ocrCells, ocrSmallCells } from './ocr.ts';
import type { PageGeometry } from './pdf.ts';
import { drawingTypeOf, findRegions, type RegionDraft } from './regions.ts';
import type { Ruling } from './rulings.ts';
import { disciplineOf, normalizeSheetNumber } from './sheet-number.ts';
import {
  findNumberCandidates,
  findTitleBlock,
  findTitleLines,
  type NumberCandidate,
  rankTitleCandidates,
  type TitleCandidate,
  type TitleLine,
} from './title-block.ts';

export interface SheetPageResult {
  width: number;
  height: number;
  numberCandidates: NumberCandidate[];
  /** Title-block lines per number candidate (the title depends on where the number is); top candidates only. */
  titleLines: TitleLine[][];
  titleBlock: Box | null;
  regions: Region[];
  /** Index in `regions` of the drawing-area view (a sheet without titled views), titled at set level. */
  drawingAreaIndex: number | null;
  revisions: Revision[];
  usedOcr: boolean;
}

export interface SheetAnalysis {
  issue: PageIssue | null;
  sheet: SheetPageResult;
  ocr: { used: boolean; scope: 'titleBlock' | 'page'; meanConfidence: number; seconds: number } | null;
  words: Word[];
}

const GOOD_NUMBER_SCORE = 5;
/**
 * A text-layer number this convincing (pattern, bottom-right, large, alone, labelled) makes the title-block
 * OCR of a sparse sheet pointless: OCR would only re-read text the layer already has, slightly differently.
 */
const CONFIDENT_TEXT_NUMBER_SCORE = 7;

/** Adds OCR words that do not duplicate text-layer words. */
const mergeOcrWords = (base: Word[], ocr: readonly Word[]): Word[] => {
  const out = [...base];
  for (const w of ocr) {
    const area = (w.x1 - w.x0) * (w.y1 - w.y0);
    if (base.some((b) => b.source === 'textLayer' && intersection(b, w) > 0.3 * area)) continue;
    out.push(w);
  }
  return out;
};

const NUMBER_LABEL_WORD_RE = /^(?:SHEET|SHT|DRAWING|DWG|DRG)$/i;

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
  W: number,
  H: number,
  max = 8,
): Box[] => {
  const near = rulings.filter((r) =>
    r.axis === 'h' ? r.at > H * 0.4 && r.to > W * 0.5 : r.at > W * 0.4 && r.to > H * 0.5,
  );
  if (near.length < 4) return [];
  const fits = (c: Box): boolean => {
    const w = c.x1 - c.x0;
    const h = c.y1 - c.y0;
    return w >= 14 && h >= 12 && w <= W * 0.2 && h <= H * 0.12 && w * h <= W * H * 0.006;
  };
  const out: Box[] = [];
  const add = (c: Box | null, into: Box[]): void => {
    if (c && fits(c) && !out.some((o) => sameBox(o, c)) && !into.some((o) => sameBox(o, c))) into.push(c);
  };
  for (const w of words) {
    if (w.dir !== 0 || !NUMBER_LABEL_WORD_RE.test(w.text.replace(/[.:#]+$/, ''))) continue;
    if (centerX(w) < W * 0.5 && centerY(w) < H * 0.5) continue;
    add(cellAt(centerX(w), centerY(w), near), out);
  }
  const corner: Box[] = [];
  for (let x = W - 4; x > W * 0.75; x -= 16) {
    for (let y = H - 4; y > H * 0.75; y -= 10) add(cellAt(x, y, near), corner);
  }
  const dist = (c: Box): number => Math.hypot(W - centerX(c), H - centerY(c));
  corner.sort((a, b) => dist(a) - dist(b));
  return [...out, ...corner].slice(0, max);
};

/**
 * Reads the small cells where the sheet number may be printed (see numberCellsOf) and puts their words in
 * place of any OCR words read there before (a cell read on its own is the more reliable reading).
 */
const ocrNumberCells = async (
  words: Word[],
  geometry: PageGeometry,
  request: OcrRequest,
): Promise<{ words: Word[]; result: OcrResult | null }> => {
  if (!request.cellRulings) return { words, result: null };
  const rulings = await request.cellRulings().catch(() => [] as Ruling[]);
  const cells = numberCellsOf(words, rulings, geometry.width, geometry.height);
  if (cells.length === 0) return { words, result: null };
  const result = await ocrSmallCells(request, cells);
  const kept = words.filter((w) => w.source !== 'ocr' || !cells.some((c) => centerInside(c, w)));
  return { words: mergeOcrWords(kept, result.words), result };
};

/**
 * Title-block OCR: the title block found from the drawing's rulings (or the bottom-right band), with its
 * ruling lines masked; then, if no sheet number was read, the right-hand strip, upright and turned 90
 * degrees (vertical title strips).
 */
const ocrTitleBlock = async (
  words: Word[],
  geometry: PageGeometry,
  request: OcrRequest,
  rulings: readonly Ruling[],
): Promise<{ words: Word[]; seconds: number; confidences: number[] }> => {
  const { width: W, height: H } = geometry;
  const ruled = findTitleBlock(
    [],
    null,
    W,
    H,
    rulings.filter((r) => r.to - r.from >= Math.min(W, H) * 0.15),
  );
  const first = ruled ? expand(ruled, 4) : { x0: W * 0.45, y0: H * 0.82, x1: W, y1: H };
  const areas: Array<{ box: Box; turn: 0 | 90 | 270 }> = [{ box: first, turn: 0 }];
  if (!ruled || ruled.y1 - ruled.y0 > H * 0.5)
    areas.push({ box: { x0: W * 0.84, y0: 0, x1: W, y1: H }, turn: 90 });
  if (ruled && ruled.y1 - ruled.y0 > H * 0.5)
    areas.push({ box: { x0: W * 0.45, y0: H * 0.82, x1: W, y1: H }, turn: 0 });
  let merged = words;
  let seconds = 0;
  const confidences: number[] = [];
  const deadline = Date.now() + request.limits.ocrPageTimeoutMs;
  const good = (): boolean => {
    const best = findNumberCandidates(merged, buildLines(merged, { gapFactor: 1.5 }), W, H)[0];
    return best !== undefined && best.score >= GOOD_NUMBER_SCORE;
  };
  const add = (result: OcrResult): void => {
    seconds += result.seconds;
    if (result.words.length) confidences.push(result.meanConfidence);
    merged = mergeOcrWords(merged, result.words);
  };
  // The small cells where the number is printed, each on its own.
  const cellPass = await ocrNumberCells(merged, geometry, request);
  if (cellPass.result) {
    seconds += cellPass.result.seconds;
    if (cellPass.result.words.length) confidences.push(cellPass.result.meanConfidence);
    merged = cellPass.words;
  }
  // A ruled title block is read cell by cell (far more reliable than one pass over the whole block).
  if (ruled) add(await ocrCells(request, clampBox(expand(ruled, 1), W, H), rulings));
  if (!ruled || !good()) {
    for (const area of areas) {
      if (Date.now() > deadline) break;
      add(await ocrArea(request, clampBox(area.box, W, H), 300, area.turn, rulings));
      if (good()) break;
    }
  }
  return { words: merged, seconds, confidences };
};

export const analyzeSheetPage = async (
  textWords: Word[],
  geometry: PageGeometry,
  pageNumber: number,
  ocrRequest: OcrRequest | null,
  rulings: readonly Ruling[] = [],
  /** OCR of the number cells only, used when the text layer yields no convincing sheet number. */
  fallbackOcr: OcrRequest | null = null,
): Promise<SheetAnalysis> => {
  let words = textWords;
  let ocr: SheetAnalysis['ocr'] = null;
  let issue: SheetAnalysis['issue'] = null;
  const { width: W, height: H } = geometry;
  let lines = buildLines(words, { gapFactor: 1.5 });
  let numberCandidates = findNumberCandidates(words, lines, W, H).slice(0, 6);
  if ((numberCandidates[0]?.score ?? 0) >= CONFIDENT_TEXT_NUMBER_SCORE) ocrRequest = null;
  if (ocrRequest) {
    let result: Awaited<ReturnType<typeof ocrTitleBlock>>;
    try {
      result = await ocrTitleBlock(words, geometry, ocrRequest, rulings);
    } catch (error) {
      // The page keeps its text-layer results; the OCR failure is reported on the page.
      const code = isExtractionError(error) ? error.code : 'ocr_failed';
      issue = { pageNumber, code, message: `OCR skipped: ${(error as Error).message}` };
      result = { words, seconds: 0, confidences: [] };
    }
    words = result.words;
    lines = buildLines(words, { gapFactor: 1.5 });
    numberCandidates = findNumberCandidates(words, lines, W, H).slice(0, 6);
    const mean = result.confidences.length
      ? Math.round(result.confidences.reduce((a, b) => a + b, 0) / result.confidences.length)
      : 0;
    ocr = {
      used: issue === null,
      scope: 'titleBlock',
      meanConfidence: mean,
      seconds: Math.round(result.seconds * 10) / 10,
    };
  }
  // A text-layer sheet without a convincing number may print its number outlined: read the number cells.
  if (!ocrRequest && fallbackOcr && (numberCandidates[0]?.score ?? 0) < GOOD_NUMBER_SCORE) {
    try {
      const pass = await ocrNumberCells(words, geometry, fallbackOcr);
      if (pass.result) {
        words = pass.words;
        lines = buildLines(words, { gapFactor: 1.5 });
        numberCandidates = findNumberCandidates(words, lines, W, H).slice(0, 6);
        ocr = {
          used: true,
          scope: 'titleBlock',
          meanConfidence: pass.result.meanConfidence,
          seconds: Math.round(pass.result.seconds * 10) / 10,
        };
      }
    } catch (error) {
      const code = isExtractionError(error) ? error.code : 'ocr_failed';
      issue = { pageNumber, code, message: `OCR skipped: ${(error as Error).message}` };
    }
  }
  const best = numberCandidates[0] ?? null;
  const longRulings = rulings.filter((r) => r.to - r.from >= Math.min(W, H) * 0.15);
  const titleBlock = findTitleBlock(words, best?.box ?? null, W, H, longRulings);
  const titleLines = numberCandidates
    .slice(0, 3)
    .map((c, i) =>
      findTitleLines(lines, c, i === 0 ? titleBlock : findTitleBlock(words, c.box, W, H, rulings), W, H),
    );
  const drafts = findRegions(lines, words, titleBlock, W, H);
  const sheetNumber = best?.printed ?? null;
  const revisions = drafts.flatMap((d) => d.revisions ?? []);
  const callouts = findCalloutReferences(
    words.filter((w) => !(titleBlock && centerInside(titleBlock, w))),
    null,
  );
  const calloutsByDraft = assignCallouts(drafts, callouts);
  const regions = drafts.map((d, i) => toRegion(d, i, pageNumber, sheetNumber, calloutsByDraft[i] ?? []));
  return {
    issue,
    sheet: {
      width: W,
      height: H,
      numberCandidates,
      titleLines,
      titleBlock,
      regions,
      drawingAreaIndex: drafts.some((d) => d.drawingArea) ? drafts.findIndex((d) => d.drawingArea) : null,
      revisions,
      usedOcr: ocr !== null,
    },
    ocr,
    words,
  };
};

const textSourceOf = (lines: readonly Line[]): TextSource => {
  const sources = new Set(lines.flatMap((l) => l.words.map((w) => w.source)));
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
  const views = drafts.flatMap((d, i) => (d.regionType === 'view' ? [i] : []));
  for (const c of callouts) {
    if (!c.displayBox) continue;
    const box = fromDisplayBox(c.displayBox);
    const holders = drafts.flatMap((d, i) => (centerInside(d.box, box) ? [i] : []));
    const holdingViews = holders.filter((i) => drafts[i]!.regionType === 'view');
    if (holdingViews.length) {
      for (const i of holdingViews) out[i]!.push(c);
      continue;
    }
    if (holders.length || !views.length) continue;
    const nearest = views.reduce((a, b) =>
      boxGap(drafts[b]!.box, box) < boxGap(drafts[a]!.box, box) ? b : a,
    );
    out[nearest]!.push(c);
  }
  return out;
};

const toRegion = (
  d: RegionDraft,
  index: number,
  pageNumber: number,
  sheetNumber: string | null,
  callouts: SheetReference[],
): Region => {
  const text = regionText(d.lines);
  const ocrWords = d.lines.flatMap((l) => l.words).filter((w) => w.source === 'ocr');
  return {
    regionId: `p${pageNumber}-${d.regionType}-${index + 1}`,
    pageNumber,
    sheetNumber,
    label: d.label,
    regionType: d.regionType,
    drawingType: d.drawingType,
    text,
    displayBox: toDisplayBox(d.box),
    titleDisplayBox: d.titleBox ? toDisplayBox(d.titleBox) : null,
    textSource: textSourceOf(d.lines),
    ocrConfidence: ocrWords.length
      ? Math.round(ocrWords.reduce((s, w) => s + (w.confidence ?? 0), 0) / ocrWords.length)
      : null,
    normalizedData: buildNormalizedData({
      text,
      sheetNumber,
      viewNumber: d.viewNumber ?? null,
      viewTitle: d.viewTitle ?? null,
      scaleText: d.scaleText ?? null,
      callouts,
      keynotes: d.keynotes ?? [],
      schedule: d.schedule ?? null,
      revisions: d.revisions ?? [],
    }),
  };
};

/** Region text in reading order: rows top to bottom, cells left to right. */
const regionText = (lines: readonly Line[]): string => {
  const horizontal = lines.filter((l) => l.dir === 0).sort((a, b) => centerY(a) - centerY(b));
  const rows: Line[][] = [];
  for (const l of horizontal) {
    const row = rows[rows.length - 1];
    if (row && Math.abs(centerY(row[0]!) - centerY(l)) < 0.5 * Math.min(row[0]!.size, l.size)) row.push(l);
    else rows.push([l]);
  }
  const text = rows
    .map((r) =>
      r
        .sort((a, b) => a.x0 - b.x0)
        .map((l) => l.text)
        .join('  '),
    )
    .join('\n');
  const rotated = lines.filter((l) => l.dir !== 0).map((l) => l.text);
  return [text, ...rotated].filter(Boolean).join('\n');
};

const PAGE_SIZES: ReadonlyArray<[string, number, number]> = [
  ['ANSI A (Letter)', 612, 792],
  ['Legal', 612, 1008],
  ['ANSI B (Tabloid)', 792, 1224],
  ['ARCH B', 864, 1296],
  ['ANSI C', 1224, 1584],
  ['ARCH C', 1296, 1728],
  ['ANSI D', 1584, 2448],
  ['ARCH D', 1728, 2592],
  ['ANSI E', 2448, 3168],
  ['ARCH E1', 2160, 3024],
  ['ARCH E', 2592, 3456],
];

export const pageSizeName = (width: number, height: number): string | null => {
  const a = Math.min(width, height);
  const b = Math.max(width, height);
  for (const [name, w, h] of PAGE_SIZES) if (Math.abs(a - w) <= 12 && Math.abs(b - h) <= 12) return name;
  return null;
};

const foldLine = (t: string): string => t.toUpperCase().replace(/[^A-Z0-9]/g, '');

/**
 * Set-level choices: the sheet-number position most sheets agree on, and titles that are not repeated
 * across the set (repeated title-block lines are the project name, client or firm).
 */
export const assembleSheets = (
  pages: ReadonlyArray<{ pageNumber: number; sheet: SheetPageResult | null; width: number; height: number }>,
): Sheet[] => {
  // Every drawing-sized page is a sheet, with a null number when none was read.
  const sheetPages = pages.filter((p) => p.sheet !== null);
  if (sheetPages.length === 0) return [];
  // Where the set prints its numbers: relative position of each page's best candidate.
  const anchors = sheetPages
    .map((p) => p.sheet!.numberCandidates[0])
    .filter((c): c is NumberCandidate => c !== undefined && c.score >= GOOD_NUMBER_SCORE);
  const choose = (p: (typeof sheetPages)[number]): number => {
    const cands = p.sheet!.numberCandidates;
    if (cands.length < 2 || anchors.length < 3) return 0;
    const score = (c: NumberCandidate): number => {
      const rx = centerX(c.box) / p.width;
      const ry = centerY(c.box) / p.height;
      const agree = anchors.filter((a) => {
        const ax = centerX(a.box) / p.width;
        const ay = centerY(a.box) / p.height;
        return Math.abs(ax - rx) < 0.03 && Math.abs(ay - ry) < 0.03;
      }).length;
      return c.score + (2 * agree) / anchors.length;
    };
    let best = 0;
    cands.forEach((c, i) => {
      if (score(c) > score(cands[best]!)) best = i;
    });
    return best;
  };
  const chosen = sheetPages.map((p) => ({ p, index: choose(p) }));
  // Title-block lines repeated across the set are boilerplate (project name, client, firm).
  const lineCounts = new Map<string, number>();
  for (const { p, index } of chosen) {
    const seen = new Set<string>();
    for (const l of p.sheet!.titleLines[index] ?? []) {
      const key = foldLine(l.text);
      if (!seen.has(key)) {
        seen.add(key);
        lineCounts.set(key, (lineCounts.get(key) ?? 0) + 1);
      }
    }
  }
  const n = chosen.length;
  const repeated = (text: string): boolean =>
    n >= 3 && (lineCounts.get(foldLine(text)) ?? 0) >= Math.max(3, 0.5 * n);
  const prefixes = new Set(
    chosen
      .map(({ p, index }) => p.sheet!.numberCandidates[index]?.prefix)
      .filter((x): x is string => Boolean(x)),
  );
  return chosen.map(({ p, index }) => {
    const s = p.sheet!;
    const number = s.numberCandidates[index] ?? null;
    const titles: TitleCandidate[] = number
      ? rankTitleCandidates(s.titleLines[index] ?? [], number, repeated)
      : [];
    const title = titles[0] ?? null;
    const sheetNumber = number?.printed ?? null;
    const sheetTitle = title ? title.text.replace(/\s+/g, ' ').trim() : null;
    const regions = s.regions.map((r, i) => {
      // The drawing area of a sheet without titled views is the view the sheet title names.
      const area = i === s.drawingAreaIndex && sheetTitle !== null;
      return {
        ...r,
        sheetNumber,
        ...(area ? { label: sheetTitle, drawingType: drawingTypeOf(sheetTitle) } : {}),
        normalizedData: {
          ...r.normalizedData,
          sheetNumber: sheetNumber ? normalizeSheetNumber(sheetNumber) : null,
          ...(area ? { viewTitle: sheetTitle } : {}),
        },
      };
    });
    return {
      pageNumber: p.pageNumber,
      sheetNumber,
      sheetNumberNormalized: sheetNumber ? normalizeSheetNumber(sheetNumber) : null,
      sheetTitle,
      discipline: number ? disciplineOf(number.prefix, prefixes) : null,
      revisions: s.revisions,
      pageSize: { width: round1(p.width), height: round1(p.height), name: pageSizeName(p.width, p.height) },
      sheetNumberBox: number ? toDisplayBox(number.box) : null,
      sheetTitleBox: title ? toDisplayBox(boxOf([title.box])) : null,
      textSource: number ? number.source : 'none',
      confidence: number ? Math.max(0, Math.min(1, number.score / 8)) : 0,
      regions,
    };
  });
};

const round1 = (v: number): number => Math.round(v * 10) / 10;
