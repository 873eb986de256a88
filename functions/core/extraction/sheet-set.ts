/**
 * Set-level choices for the sheets of one document: the sheet-number position most sheets agree on, titles
 * that are not repeated across the set (repeated title-block lines are the project name, client or firm), and
 * the discipline of set-specific prefixes.
 */
import { boxOf, toDisplayBox } from './geometry.ts';
import type { Sheet } from './model.ts';
import { resolveReferenceTargets } from './reference-targets.ts';
import { drawingTypeOf } from './regions.ts';
import { disciplineOf, normalizeSheetNumber } from './sheet-number.ts';
import { chooseSheetNumbers } from './sheet-numbering.ts';
import { rankTitleCandidates, type TitleCandidate } from './sheet-title.ts';
import type { SheetPageResult } from './sheets.ts';
import { boilerplateCleaner } from './title-boilerplate.ts';

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

/**
 * Set-level choices: the sheet-number position most sheets agree on, and titles that are not repeated
 * across the set (repeated title-block lines are the project name, client or firm).
 */
export const assembleSheets = (
  pages: ReadonlyArray<{ pageNumber: number; sheet: SheetPageResult | null; width: number; height: number }>,
): Sheet[] => {
  // Every drawing-sized page is a sheet, with a null number when none was read.
  const sheetPages = pages.flatMap((p) => (p.sheet ? [{ ...p, sheet: p.sheet }] : []));
  if (sheetPages.length === 0) return [];
  const choices = chooseSheetNumbers(sheetPages.map((p) => ({ ...p, candidates: p.sheet.numberCandidates })));
  const chosen = sheetPages.map((p, i) => {
    const choice = choices[i] ?? { kind: 'none' };
    // Title lines are kept per candidate (the title is read next to its number); an inferred number uses
    // those of the page's best candidate.
    const index = choice.kind === 'candidate' ? choice.index : 0;
    const candidate = p.sheet.numberCandidates[index] ?? null;
    return { p, choice, candidate, titleLines: p.sheet.titleLines[index] ?? [] };
  });
  // Title-block lines repeated across the set are boilerplate (project name, client, firm).
  const withoutBoilerplate = boilerplateCleaner(chosen.map((entry) => entry.titleLines.map((l) => l.text)));
  const numberOf = (entry: (typeof chosen)[number]): { printed: string; prefix: string } | null => {
    if (entry.choice.kind === 'inferred') return entry.choice;
    return entry.choice.kind === 'candidate' ? entry.candidate : null;
  };
  const prefixes = new Set(chosen.flatMap((entry) => numberOf(entry)?.prefix ?? []).filter(Boolean));
  const sheets = chosen.map((entry): Sheet => {
    const { p, choice, candidate } = entry;
    const s = p.sheet;
    const number = numberOf(entry);
    const read = choice.kind === 'candidate' ? candidate : null;
    const titles: TitleCandidate[] = candidate
      ? rankTitleCandidates(entry.titleLines, candidate, withoutBoilerplate)
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
      sheetNumberBox: read ? toDisplayBox(read.box) : null,
      sheetTitleBox: title ? toDisplayBox(boxOf([title.box])) : null,
      textSource: read ? read.source : 'none',
      // A number inferred from the neighbouring sheets' run is less sure than one read.
      confidence: read ? Math.max(0, Math.min(1, read.score / 8)) : choice.kind === 'inferred' ? 0.3 : 0,
      regions,
    };
  });
  return resolveReferenceTargets(sheets);
};

const round1 = (v: number): number => Math.round(v * 10) / 10;
