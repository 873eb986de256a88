/**
 * Set-level choices for the sheets of one document: the sheet-number position most sheets agree on, titles
 * that are not repeated across the set (repeated title-block lines are the project name, client or firm), and
 * the discipline of set-specific prefixes.
 */

import { resolveReferenceTargets } from '../assembly/reference-targets.ts';
import { boxOf, toDisplayBox } from '../geometry.ts';
import type { Sheet, SheetIdentification } from '../model.ts';
import type { SheetPageResult } from '../pages/sheets.ts';
import {
  type DrawingIndexEntry,
  inBlockOrder,
  learnTitleOrders,
  numbersFromIndexOrder,
  reconcileTitle,
  type SetIndex,
  setDrawingIndex,
} from './drawing-index.ts';
import { boxToDisplay, boxToTurned } from './reading-frame.ts';
import { drawingTypeOf } from './regions.ts';
import { disciplineOf, normalizeSheetNumber, parseSheetNumber } from './sheet-number.ts';
import {
  chooseSheetNumbers,
  type SetNumber,
  withOcrDigits,
  withSetHeads,
  withSetSeparator,
} from './sheet-numbering.ts';
import { rankTitleCandidates, type TitleCandidate } from './sheet-title.ts';
import { boilerplateCleaner, foldLine, onEverySheet } from './title-boilerplate.ts';
import { disciplineFromTitle } from './title-discipline.ts';

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
  const shortSide = Math.min(width, height);
  const longSide = Math.max(width, height);
  for (const [name, sizeWidth, sizeHeight] of PAGE_SIZES)
    if (Math.abs(shortSide - sizeWidth) <= 12 && Math.abs(longSide - sizeHeight) <= 12) return name;
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
  const sheetPages = pages.flatMap((page) => (page.sheet ? [{ ...page, sheet: page.sheet }] : []));
  if (sheetPages.length === 0) return [];
  const choices = withIndexWitness(
    sheetPages,
    chooseSheetNumbers(sheetPages.map((page) => ({ ...page, candidates: page.sheet.numberCandidates }))),
  );
  const chosen = sheetPages.map((page, position) => {
    const choice = choices.numbers[position] ?? { kind: 'none' };
    // Title lines are kept per candidate (the title is read next to its number); an inferred number uses
    // those of the page's best candidate.
    const index = choice.kind === 'candidate' ? choice.index : 0;
    const candidate = page.sheet.numberCandidates[index] ?? null;
    // A sheet read turned has its title lines ranked in the frame it was read in (where they stack as lines).
    const { width, height, turn = 0 } = page.sheet;
    const titleLines = (page.sheet.titleLines[index] ?? []).map((line) => ({
      ...line,
      box: boxToTurned(line.box, { width, height }, turn),
    }));
    const anchor = candidate && { ...candidate, box: boxToTurned(candidate.box, { width, height }, turn) };
    return { page, choice, candidate, anchor, titleLines, turn };
  });
  // Title-block lines repeated across the set are boilerplate (project name, client, firm).
  const linesPerSheet = chosen.map((entry) => entry.titleLines.map((line) => line.text));
  const withoutBoilerplate = boilerplateCleaner(linesPerSheet);
  const setWide = onEverySheet(linesPerSheet);
  const readNumber = (entry: (typeof chosen)[number]): SetNumber | null => {
    if (entry.choice.kind === 'inferred') return { ...entry.choice, ocr: false, head: [] };
    const { candidate } = entry;
    return entry.choice.kind === 'candidate' && candidate
      ? {
          printed: candidate.printed,
          prefix: candidate.prefix,
          ocr: candidate.source === 'ocr',
          head: candidate.head ?? [],
        }
      : null;
  };
  // Readings checked against the set's own numbering: its prefixes (OCR's letters for digits), its heads.
  const numbers = withSetHeads(withOcrDigits(chosen.map(readNumber)));
  const prefixes = new Set(numbers.flatMap((number) => number?.prefix ?? []).filter(Boolean));
  const readings = chosen.map((entry) => {
    // A sheet without a number candidate ranks the lines that name a kind of drawing by themselves.
    const anchor =
      entry.anchor ??
      (entry.titleLines.length ? { box: boxOf(entry.titleLines.map((line) => line.box)), size: 0 } : null);
    const titles: TitleCandidate[] = anchor
      ? rankTitleCandidates(entry.titleLines, anchor, withoutBoilerplate, setWide)
      : [];
    const title = titles[0] ?? null;
    return { title, text: title ? title.text.replace(/\s+/g, ' ').trim() : null };
  });
  const indexEntries = numbers.map((number) => indexEntryOf(choices.index, number?.printed ?? null));
  const titlesAfterIndex = titlesWithIndex(
    readings.map((reading) => reading.text),
    indexEntries,
  );
  const sheetTitles = withConnectingWords(
    titlesAfterIndex,
    chosen.map((entry) => entry.titleLines.some((line) => line.ocrConfidence !== undefined)),
  );
  const printedNumbers = withSetSeparator(numbers.map((number) => number?.printed ?? null));
  // A set that numbers its sheets by their place in it (1, 2, 3 ... of `N OF M`) is not divided by discipline:
  // what a title names (a foundation plan, a site plan) is then no designator the set gave. A sheet on its own
  // (`SHEET 1 OF 1`, a standard plan's file number) is still read from its title.
  const numberedInSequence =
    printedNumbers.filter((printed) => printed !== null && PLACE_IN_SET_RE.test(printed)).length >=
    SEQUENCE_SHEETS;
  const sheets = chosen.map((entry, index): Sheet => {
    const { page, choice, candidate } = entry;
    const sheet = page.sheet;
    const number = numbers[index] ?? null;
    const read = choice.kind === 'candidate' ? candidate : null;
    const title = readings[index]?.title ?? null;
    const sheetNumber = printedNumbers[index] ?? null;
    const sheetTitle = sheetTitles[index] ?? null;
    const regions = sheet.regions.map((region, regionIndex) => {
      // The drawing area of a sheet without titled views is the view the sheet title names.
      const area = regionIndex === sheet.drawingAreaIndex && sheetTitle !== null;
      return {
        ...region,
        sheetNumber,
        ...(area ? { label: sheetTitle, drawingType: drawingTypeOf(sheetTitle) } : {}),
        normalizedData: {
          ...region.normalizedData,
          sheetNumber: sheetNumber ? normalizeSheetNumber(sheetNumber) : null,
          ...(area ? { viewTitle: sheetTitle } : {}),
        },
      };
    });
    return {
      pageNumber: page.pageNumber,
      sheetNumber,
      sheetNumberNormalized: sheetNumber ? normalizeSheetNumber(sheetNumber) : null,
      sheetTitle,
      // A number without a letter prefix (or no number) leaves the discipline to what the title names.
      discipline: number?.prefix
        ? disciplineOf(number.prefix, prefixes)
        : numberedInSequence
          ? null
          : disciplineFromTitle(sheetTitle),
      revisions: sheet.revisions,
      pageSize: {
        width: round1(page.width),
        height: round1(page.height),
        name: pageSizeName(page.width, page.height),
      },
      sheetNumberBox: read ? toDisplayBox(read.box) : null,
      sheetTitleBox: title
        ? toDisplayBox(
            boxToDisplay(boxOf([title.box]), { width: sheet.width, height: sheet.height }, entry.turn),
          )
        : null,
      textSource: read ? read.source : 'none',
      // A number inferred from the neighbouring sheets' run is less sure than one read.
      confidence: read ? Math.max(0, Math.min(1, read.score / 8)) : choice.kind === 'inferred' ? 0.3 : 0,
      identification: {
        numberSource: numberSourceOf(choice),
        titleSource: sheetTitle
          ? titleSourceOf(readings[index]?.text ?? null, titlesAfterIndex[index] ?? null)
          : 'none',
        indexEntry: indexEntries[index] ?? null,
      },
      regions,
    };
  });
  return resolveReferenceTargets(sheets);
};

const round1 = (value: number): number => Math.round(value * 10) / 10;

/** A sheet number that is only the sheet's place in its set. */
const PLACE_IN_SET_RE = /^\d{1,3}$/;
/** Sheets numbered so that make a set numbered in sequence. */
const SEQUENCE_SHEETS = 3;

type NumberChoice = ReturnType<typeof chooseSheetNumbers>[number];

/**
 * The set's drawing index as a witness for numbers: a sheet without a number takes a number of its own
 * candidates that the index names (and no other sheet has), else the index entry its neighbours' positions
 * point to (confidence as an inferred number).
 */
const withIndexWitness = (
  pages: ReadonlyArray<{ sheet: SheetPageResult }>,
  numbers: NumberChoice[],
): { numbers: NumberChoice[]; index: SetIndex | null } => {
  const printedOf = (choice: NumberChoice | undefined, page: { sheet: SheetPageResult } | undefined) =>
    choice?.kind === 'inferred'
      ? choice.printed
      : choice?.kind === 'candidate'
        ? (page?.sheet.numberCandidates[choice.index]?.printed ?? null)
        : null;
  const read = numbers.flatMap((choice, pageIndex) =>
    choice.kind === 'candidate' ? [printedOf(choice, pages[pageIndex]) ?? []].flat() : [],
  );
  const index = setDrawingIndex(
    pages.map((page) => page.sheet.drawingIndex ?? []),
    read,
  );
  if (!index) return { numbers, index };
  const used = new Set(read.map(normalizeSheetNumber));
  const withCandidates = numbers.map((choice, pageIndex): NumberChoice => {
    if (choice.kind !== 'none') return choice;
    const candidates = pages[pageIndex]?.sheet.numberCandidates ?? [];
    const named = candidates.findIndex(
      (candidate) => index.positionOf.has(candidate.normalized) && !used.has(candidate.normalized),
    );
    if (named < 0) return choice;
    used.add(candidates[named]?.normalized ?? '');
    return { kind: 'candidate', index: named, byIndex: true };
  });
  const fromOrder = numbersFromIndexOrder(
    withCandidates.map((choice, pageIndex) => printedOf(choice, pages[pageIndex])),
    index,
  );
  return {
    index,
    numbers: withCandidates.map((choice, pageIndex): NumberChoice => {
      const printed = fromOrder[pageIndex];
      const parsed = printed ? parseSheetNumber(printed) : null;
      return printed && parsed
        ? { kind: 'inferred', printed, prefix: parsed.prefix, by: 'drawingIndex' }
        : choice;
    }),
  };
};

/**
 * The set's drawing index as a witness for titles: each sheet's title-block reading reconciled with its index
 * entry (see reconcileTitle), the index title's parts put in the order the set's title blocks print them.
 */
const titlesWithIndex = (
  readings: ReadonlyArray<string | null>,
  entries: ReadonlyArray<DrawingIndexEntry | null>,
): Array<string | null> => {
  if (!entries.some(Boolean)) return [...readings];
  const pairs = readings.flatMap((reading, sheetIndex) => {
    const entry = entries[sheetIndex];
    return reading && entry ? [{ reading, indexTitle: entry.title }] : [];
  });
  const orders = learnTitleOrders(pairs);
  // Words the set's title blocks print on two sheets or more: how the set spells them.
  const sheetsWith = new Map<string, number>();
  for (const reading of readings)
    for (const word of new Set((reading ?? '').split(/\s+/).map(foldLine)))
      sheetsWith.set(word, (sheetsWith.get(word) ?? 0) + 1);
  const knownWord = (folded: string): boolean => (sheetsWith.get(folded) ?? 0) >= 2;
  return readings.map((reading, sheetIndex) => {
    const entry = entries[sheetIndex];
    return entry ? reconcileTitle(reading, inBlockOrder(entry.title, orders), knownWord) : reading;
  });
};

/** The set's drawing-index entry for a sheet number, or null (no index, or the number is not in it). */
const indexEntryOf = (index: SetIndex | null, number: string | null): DrawingIndexEntry | null => {
  const position = index && number ? index.positionOf.get(normalizeSheetNumber(number)) : undefined;
  return (position === undefined ? null : index?.entries[position]) ?? null;
};

const numberSourceOf = (choice: NumberChoice): SheetIdentification['numberSource'] => {
  if (choice.kind === 'inferred') return choice.by;
  if (choice.kind === 'candidate') return choice.byIndex ? 'drawingIndex' : 'titleBlock';
  return 'none';
};

const titleSourceOf = (reading: string | null, title: string | null): SheetIdentification['titleSource'] => {
  if (!title) return 'none';
  if (!reading) return 'drawingIndex';
  return reading === title ? 'titleBlock' : 'both';
};

/** Short words OCR drops from a title line (`LOWER GREAT HIGHWAY MATCHLINE` for `... HIGHWAY TO MATCHLINE`). */
const CONNECTING_WORD_RE = /^(?:TO|OF|AT|AND|&|THE|ON|IN)$/i;

/**
 * Connecting words OCR dropped from a title, put back from the set's other titles: where a title reads
 * `V W A B Z Y` and another sheet's title reads `V W A TO B Z Y` (a copy of the same sheet, or the same
 * streets on a neighbouring sheet: two words on each side of the gap agree too), the word goes in. Only titles read by OCR
 * (`ocrRead`); text-layer titles are as printed.
 */
export const withConnectingWords = (
  titles: ReadonlyArray<string | null>,
  ocrRead: readonly boolean[],
): Array<string | null> => {
  const key = (word: string): string => word.toUpperCase().replace(/[^A-Z0-9&]/g, '');
  const wordsOf = (title: string | null): string[] =>
    title ? title.split(/\s+/).filter((word) => key(word)) : [];
  // Every `W A X B Z` of the set's titles with X a connecting word (the title's ends as empty words).
  const withConnector = new Map<string, string>();
  for (const title of titles) {
    const words = ['', '', ...wordsOf(title).map(key), '', ''];
    for (let at = 2; at + 4 < words.length; at++) {
      const connector = words[at + 1] ?? '';
      if (!CONNECTING_WORD_RE.test(connector)) continue;
      const context = [...words.slice(at - 2, at + 1), ...words.slice(at + 2, at + 5)].join(' ');
      withConnector.set(context, connector);
    }
  }
  return titles.map((title, index) => {
    if (!title || !ocrRead[index]) return title;
    const words = wordsOf(title);
    const keys = ['', '', ...words.map(key), '', ''];
    const out: string[] = [];
    for (const [at, word] of words.entries()) {
      out.push(word);
      if (at + 1 >= words.length) continue;
      // Two words on each side of the gap: `WOOLSEY STREET BOWDOIN STREET` of a street-limits title is not
      // the `WOOLSEY STREET AT BOWDOIN STREET` of an intersection's title.
      const connector = withConnector.get(keys.slice(at, at + 6).join(' '));
      if (connector) out.push(connector);
    }
    return out.join(' ');
  });
};
