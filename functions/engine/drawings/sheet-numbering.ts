/**
 * The sheet number of every sheet of a set, checked against what the set says about itself:
 * - the position: most sheets print their number in the same place (anchors);
 * - fixed fields: a value printed at the same place on three or more sheets (a contract or project number)
 *   is not a sheet number, which names one sheet;
 * - the discipline prefixes the set uses: of two readings of one number (`R-1`, `PR-1`), the one with a prefix
 *   other sheets carry;
 * - numbers without letters (`87,168`, a standard plan's file number) only in a set that does not number most
 *   of its sheets with lettered numbers;
 * - the numbering of neighbouring sheets: a sheet without a convincing number between two sheets numbered in
 *   an unbroken run (`A3` on page 3, `A6` on page 6) takes its place in the run (`A4`, `A5`).
 */
import { centerX, centerY } from '../geometry.ts';
import { GOOD_NUMBER_SCORE, type NumberCandidate } from './number-candidates.ts';
import { parseCompoundSheetNumber } from './sheet-number.ts';

export interface NumberingPage {
  pageNumber: number;
  width: number;
  height: number;
  candidates: readonly NumberCandidate[];
}

/** The set's choice for one sheet: a candidate of the page, or a number inferred from its neighbours. */
export type NumberChoice =
  | { kind: 'candidate'; index: number; byIndex?: boolean }
  | { kind: 'inferred'; printed: string; prefix: string; by: 'numberingRun' | 'drawingIndex' }
  | { kind: 'none' };

/** Relative distance under which two boxes on two sheets are in the same place. */
const SAME_PLACE = 0.04;
/** A value in the same place on this many sheets is a fixed title-block field. */
const FIXED_FIELD_PAGES = 3;
const SET_PREFIX_BONUS = 0.75;
const FIXED_FIELD_PENALTY = 4;
/** OCR readings below this confidence are not trusted on their own. */
const TRUSTED_OCR_CONFIDENCE = 60;

const relativeCenter = (candidate: NumberCandidate, page: NumberingPage): [number, number] => [
  centerX(candidate.box) / page.width,
  centerY(candidate.box) / page.height,
];

const samePlace = (first: [number, number], second: [number, number]): boolean =>
  Math.abs(first[0] - second[0]) < SAME_PLACE && Math.abs(first[1] - second[1]) < SAME_PLACE;

export const isConvincing = (candidate: NumberCandidate): boolean =>
  candidate.score >= GOOD_NUMBER_SCORE &&
  (candidate.source === 'textLayer' || (candidate.confidence ?? 0) >= TRUSTED_OCR_CONFIDENCE);

/**
 * Readings of a value in a place where three or more sheets print that same value: a fixed field (a contract
 * or project number). The same value elsewhere (the sheet's own number, referenced from other sheets) is not.
 */
const fixedFieldTest = (
  pages: readonly NumberingPage[],
): ((candidate: NumberCandidate, page: NumberingPage) => boolean) => {
  const places = new Map<string, Array<{ page: number; at: [number, number] }>>();
  for (const page of pages) {
    for (const candidate of page.candidates) {
      const list = places.get(candidate.normalized) ?? [];
      list.push({ page: page.pageNumber, at: relativeCenter(candidate, page) });
      places.set(candidate.normalized, list);
    }
  }
  const fixedValues = new Set<string>();
  for (const [value, list] of places) {
    const pagesAtSamePlace = list.map(
      (here) => new Set(list.filter((other) => samePlace(here.at, other.at)).map((other) => other.page)).size,
    );
    if (Math.max(0, ...pagesAtSamePlace) >= FIXED_FIELD_PAGES) fixedValues.add(value);
  }
  return (candidate, page) => {
    const at = relativeCenter(candidate, page);
    const sheetsThere = (places.get(candidate.normalized) ?? []).filter((other) => samePlace(at, other.at));
    if (new Set(sheetsThere.map((other) => other.page)).size >= FIXED_FIELD_PAGES) return true;
    // A value the set prints as a fixed field, read unconvincingly elsewhere (a reduced or rotated print of a
    // sheet puts the field in another place): the field again, not this sheet's number.
    return fixedValues.has(candidate.normalized) && candidate.score < GOOD_NUMBER_SCORE;
  };
};

/** `A3`, `CR-13`, `SW-001`: prefix, separator and an integer; null for decimal or suffixed numbers. */
const sequenceForm = (
  printed: string,
): { prefix: string; separator: string; value: number; digits: number } | null => {
  const match = /^([A-Z]+)([-.]?)(\d{1,4})$/.exec(printed.toUpperCase());
  if (!match) return null;
  const [, prefix = '', separator = '', digits = ''] = match;
  return { prefix, separator, value: Number(digits), digits: digits.startsWith('0') ? digits.length : 0 };
};

const formatInRun = (form: NonNullable<ReturnType<typeof sequenceForm>>, value: number): string =>
  `${form.prefix}${form.separator}${String(value).padStart(form.digits, '0')}`;

export const chooseSheetNumbers = (pages: readonly NumberingPage[]): NumberChoice[] => {
  const isFixedField = fixedFieldTest(pages);
  const anchors = pages.flatMap((page) => {
    const best = page.candidates[0];
    return best && best.score >= GOOD_NUMBER_SCORE && !isFixedField(best, page)
      ? [relativeCenter(best, page)]
      : [];
  });
  const prefixPages = new Map<string, Set<number>>();
  for (const page of pages) {
    for (const candidate of page.candidates) {
      if (!isConvincing(candidate) || isFixedField(candidate, page)) continue;
      const set = prefixPages.get(candidate.prefix) ?? new Set<number>();
      set.add(page.pageNumber);
      prefixPages.set(candidate.prefix, set);
    }
  }
  const setScore = (candidate: NumberCandidate, page: NumberingPage): number => {
    let score = candidate.score;
    if (isFixedField(candidate, page)) score -= FIXED_FIELD_PENALTY;
    const elsewhere = [...(prefixPages.get(candidate.prefix) ?? [])].some(
      (pageNumber) => pageNumber !== page.pageNumber,
    );
    if (elsewhere) score += SET_PREFIX_BONUS;
    if (anchors.length >= 3) {
      const at = relativeCenter(candidate, page);
      const agree = anchors.filter((anchor) => samePlace(anchor, at)).length;
      score += (2 * agree) / anchors.length;
    }
    return score;
  };
  // A set that numbers most of its sheets with lettered numbers uses numbers without letters for something
  // else (a file or register number printed beside the sheet number).
  const letteredSheets = pages.filter((page) =>
    page.candidates.some((candidate) => candidate.prefix !== '' && isConvincing(candidate)),
  ).length;
  const numbersWithoutLetters = letteredSheets < Math.max(2, pages.length / 2);
  const choices: NumberChoice[] = pages.map((page) => {
    let best = -1;
    let bestScore = Number.NEGATIVE_INFINITY;
    page.candidates.forEach((candidate, index) => {
      if (candidate.prefix === '' && !numbersWithoutLetters) return;
      const score = setScore(candidate, page);
      if (score > bestScore) {
        best = index;
        bestScore = score;
      }
    });
    // A reading with nothing in its favour (away from where numbers are printed, small, unlabelled, not alone on
    // its line: a spot elevation in the drawing read with its leader as `L868`) is no sheet number.
    if (best < 0 || bestScore <= 0) return { kind: 'none' };
    const chosen = page.candidates[best];
    // A fixed field is never this sheet's number, however it scores.
    if (chosen && isFixedField(chosen, page)) return { kind: 'none' };
    return { kind: 'candidate', index: best };
  });
  return inferFromRuns(pages, choices);
};

/** Sheets without a convincing number between two sheets of an unbroken run take their place in it. */
const inferFromRuns = (pages: readonly NumberingPage[], choices: NumberChoice[]): NumberChoice[] => {
  const convincing = pages.map((page, index) => {
    const choice = choices[index];
    const candidate = choice?.kind === 'candidate' ? page.candidates[choice.index] : undefined;
    return candidate && isConvincing(candidate) ? sequenceForm(candidate.printed) : null;
  });
  return choices.map((choice, index) => {
    if (convincing[index]) return choice;
    const page = pages[index];
    if (!page) return choice;
    let before = index - 1;
    while (before >= 0 && !convincing[before]) before--;
    let after = index + 1;
    while (after < pages.length && !convincing[after]) after++;
    const first = convincing[before];
    const last = convincing[after];
    const firstPage = pages[before];
    const lastPage = pages[after];
    if (!first || !last || !firstPage || !lastPage) return choice;
    if (first.prefix !== last.prefix || first.separator !== last.separator) return choice;
    if (last.value - first.value !== lastPage.pageNumber - firstPage.pageNumber) return choice;
    const value = first.value + (page.pageNumber - firstPage.pageNumber);
    return { kind: 'inferred', printed: formatInRun(first, value), prefix: first.prefix, by: 'numberingRun' };
  });
};

/** A number without letters grouped in thousands (`87,168`, `87.168`). */
const GROUPED_NUMBER_RE = /^\d{1,3}(?:[,.]\d{3})+$/;

/**
 * A set prints its numbers grouped in thousands with one separator, and OCR reads a comma as a period now and
 * then (`96.607`): when two or more of the set's grouped numbers read one separator and fewer read the other,
 * those take the separator of the rest.
 */
export const withSetSeparator = (numbers: ReadonlyArray<string | null>): Array<string | null> => {
  const grouped = numbers.filter(
    (printed): printed is string => printed !== null && GROUPED_NUMBER_RE.test(printed),
  );
  const commas = grouped.filter((printed) => printed.includes(',')).length;
  const periods = grouped.length - commas;
  const separator = commas >= 2 && periods < commas ? ',' : periods >= 2 && commas < periods ? '.' : null;
  if (!separator) return [...numbers];
  return numbers.map((printed) =>
    printed !== null && GROUPED_NUMBER_RE.test(printed) ? printed.replace(/[,.]/g, separator) : printed,
  );
};

/** A number the set chose, with what the reading says about it. */
export interface SetNumber {
  printed: string;
  prefix: string;
  /** Read by OCR (its letters and digits may be confused). */
  ocr: boolean;
  /** Short parts printed just before it on its line (NumberCandidate.head). */
  head: readonly string[];
}

/** Letters OCR reads for digits (the confusions of sans-serif lettering). */
const DIGIT_OF: Readonly<Record<string, string>> = { O: '0', I: '1', L: '1', Z: '2', S: '5', B: '8' };

/**
 * OCR reads a digit after a number's letters as a letter now and then (`DWO7`, `DWI1`): a reading whose
 * prefix is another reading's prefix and one letter that stands for a digit, where the set gives the shorter
 * prefix to more sheets than the longer, takes the digit.
 */
export const withOcrDigits = (numbers: ReadonlyArray<SetNumber | null>): Array<SetNumber | null> => {
  const counts = new Map<string, number>();
  for (const number of numbers) if (number) counts.set(number.prefix, (counts.get(number.prefix) ?? 0) + 1);
  return numbers.map((number) => {
    if (!number?.ocr || number.prefix.length < 2) return number;
    const shorter = number.prefix.slice(0, -1);
    const digit = DIGIT_OF[number.prefix.slice(-1)];
    if (!digit || (counts.get(shorter) ?? 0) <= (counts.get(number.prefix) ?? 0)) return number;
    if (!number.printed.toUpperCase().startsWith(number.prefix)) return number;
    return {
      ...number,
      printed: `${shorter}${digit}${number.printed.slice(number.prefix.length)}`,
      prefix: shorter,
    };
  });
};

/** The head of a several-part number: all but its last part, with the separator after it (`4977_S_`). */
const HEAD_RE = /^(.+[-_.])[A-Z0-9]+$/;

/** Parts compared as OCR reads them: confusable letters as their digits. */
const asRead = (part: string): string =>
  part
    .toUpperCase()
    .split('')
    .map((char) => DIGIT_OF[char] ?? char)
    .join('');

/**
 * Firms that put the project code and a discipline or role into every sheet identifier (ISO 19650-style names:
 * `4977_S_DW01`, `1234-A-101`) print the same head on every sheet, and OCR reads the head's underscores as
 * spaces: the number cell reads `4977 S DW08`, and only `DW08` passes for a number. When two or more of the
 * set's several-part numbers share a head, and at least half of them, a reading of a tail alone takes that
 * head if it was printed right before it (its parts, as OCR reads them), or if the set numbers most of its
 * sheets with that head and its tails start with the same letters (`DW09` among `4977_S_DW01` ... `DW12`).
 */
export const withSetHeads = (numbers: ReadonlyArray<SetNumber | null>): Array<SetNumber | null> => {
  const heads = new Map<string, string[]>();
  let compound = 0;
  for (const number of numbers) {
    const match = number && parseCompoundSheetNumber(number.printed) ? HEAD_RE.exec(number.printed) : null;
    if (!match?.[1] || !number) continue;
    compound++;
    heads.set(match[1], [...(heads.get(match[1]) ?? []), number.printed.slice(match[1].length)]);
  }
  const [head, tails] = [...heads].sort((first, second) => second[1].length - first[1].length)[0] ?? ['', []];
  if (tails.length < 2 || tails.length < compound / 2) return [...numbers];
  const parts = head.split(/[-_.]/).filter(Boolean).map(asRead);
  const lettersOf = (printed: string): string => /^[A-Z]+/.exec(printed.toUpperCase())?.[0] ?? '';
  const tailLetters = new Set(tails.map(lettersOf).filter(Boolean));
  const numbered = numbers.filter(Boolean).length;
  return numbers.map((number) => {
    if (!number || /[-_.\s]/.test(number.printed)) return number;
    const printedHead =
      number.head.length >= parts.length &&
      number.head
        .slice(-parts.length)
        .map(asRead)
        .every((part, index) => part === parts[index]);
    const likeTails = tails.length >= numbered / 2 && tailLetters.has(lettersOf(number.printed));
    if (!printedHead && !likeTails) return number;
    const parsed = parseCompoundSheetNumber(`${head}${number.printed}`);
    return parsed ? { ...number, printed: parsed.printed, prefix: parsed.prefix } : number;
  });
};
