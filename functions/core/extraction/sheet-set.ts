/**
 * Set-level choices for the sheets of one document: the sheet-number position most sheets agree on, titles
 * that are not repeated across the set (repeated title-block lines are the project name, client or firm), and
 * the discipline of set-specific prefixes.
 */
import { boxOf, centerX, centerY, toDisplayBox } from './geometry.ts';
import type { Sheet } from './model.ts';
import { GOOD_NUMBER_SCORE, type NumberCandidate } from './number-candidates.ts';
import { drawingTypeOf } from './regions.ts';
import { disciplineOf, normalizeSheetNumber } from './sheet-number.ts';
import { rankTitleCandidates, type TitleCandidate } from './sheet-title.ts';
import type { SheetPageResult } from './sheets.ts';

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
