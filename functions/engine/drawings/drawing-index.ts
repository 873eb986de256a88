/**
 * The set's own drawing index: the table of sheet numbers and titles that a cover or title sheet prints
 * (`INDEX OF DRAWINGS`, `SHEET INDEX`, `LIST OF DRAWINGS`). Read per sheet from its words (text layer, or OCR of
 * the sheet's drawing area when its title names an index), then used across the set (`sheet-set.ts`) as a
 * second witness for each sheet's number and title.
 */
import { type Box, centerInside, centerY, type Word } from '../geometry.ts';
import { normalizeSheetNumber, parseSheetNumber } from './sheet-number.ts';
import { editDistance, foldLine } from './title-boilerplate.ts';

/** A heading or sheet title that names a drawing index. */
export const INDEX_HEADING_RE =
  /\b(?:INDEX\s+OF\s+(?:DRAWINGS|SHEETS)|(?:SHEET|DRAWING)\s+(?:INDEX|LIST)|LIST\s+OF\s+(?:DRAWINGS|SHEETS))\b/i;

export interface DrawingIndexEntry {
  /** The number as printed in the index. */
  number: string;
  title: string;
}

/** Fewer rows than this, stacked in one column, are a list of references, not an index. */
const MIN_ENTRIES = 3;
/** A number starts an entry when it begins its row or stands this many text heights after the word before. */
const ENTRY_GAP = 1.5;
/** A gap this many text heights wide after an entry's title ends it (the next column of a two-column index). */
const COLUMN_GAP = 4;
/** A gap this many text heights wide inside a title is a dash drawn as a line (`PAVEMENT PLAN - WOOLSEY ST`). */
const DASH_GAP = 1.2;
/** OCR words of a title read with less confidence than this are strokes of the table, not lettering. */
const MIN_WORD_CONFIDENCE = 60;

/**
 * A number of an index column as printed, with the slips OCR makes in a column of short numbers: lower case
 * (`u-2`), a letter prefix read as a digit (`6-0` for `G-0`, `7-3` for `T-3`), an `I` for a `1` (`R-GI`).
 */
const indexNumberOf = (text: string): string | null => {
  const upper = text.toUpperCase();
  const repaired = upper
    .replace(/^([0-9])(?=[-\u2010-\u2015]+[A-Z]?\d)/, (digit) => DIGIT_AS_LETTER[digit] ?? digit)
    .replace(/(?<=[-\u2010-\u2015][A-Z]?)I$/, '1');
  return parseSheetNumber(repaired)?.printed ?? null;
};
const DIGIT_AS_LETTER: Readonly<Record<string, string>> = {
  '0': 'O',
  '1': 'I',
  '5': 'S',
  '6': 'G',
  '7': 'T',
  '8': 'B',
};

/** Words of one printed row (centres within 0.4 text heights), left to right; rows top to bottom. */
const rowsOf = (words: readonly Word[]): Word[][] => {
  const rows: Array<{ center: number; size: number; words: Word[] }> = [];
  for (const word of [...words].sort((a, b) => centerY(a) - centerY(b))) {
    const row = rows.find(
      (row) => Math.abs(row.center - centerY(word)) < 0.4 * Math.min(row.size, word.size),
    );
    if (row) row.words.push(word);
    else rows.push({ center: centerY(word), size: word.size, words: [word] });
  }
  return rows.map((row) => row.words.sort((a, b) => a.x0 - b.x0));
};

/** The last words of a title that tell sheets of one kind apart: `1`, `C`, `2A`, `A&B`, `&`. */
const TITLE_END_RE = /^(?:[A-Z0-9]{1,3}(?:&[A-Z0-9]{1,2})?|&)[.,]?$/i;
/** Words of one title stand less than this many text heights apart. */
const WORD_GAP = 1;

/** A word of a title (two letters at least), not a file number or a stroke read as `|`. */
const isTitleWord = (word: Word): boolean => /[A-Za-z]{2}/.test(word.text);

/**
 * An entry's title: its words after the number, without the file numbers printed before it, a wide gap read as
 * the dash between parts of the title.
 */
const titleOf = (words: readonly Word[]): string => {
  const kept = words.filter((word) => word.source !== 'ocr' || (word.confidence ?? 0) >= MIN_WORD_CONFIDENCE);
  const first = kept.findIndex(isTitleWord);
  let last = kept.findLastIndex(isTitleWord);
  if (first < 0) return '';
  // A title ends with the short part that tells sheets of one kind apart (`SHEET 1`, `AREA C`, `A & B`), set at
  // a word's gap after it: not a file number printed further off.
  while (last + 1 < kept.length) {
    const next = kept[last + 1];
    const previous = kept[last];
    if (!next || !previous || !TITLE_END_RE.test(next.text) || next.x0 - previous.x1 > WORD_GAP * next.size)
      break;
    last++;
  }
  return kept
    .slice(first, last + 1)
    .map((word, index, title) => {
      const before = title[index - 1];
      return before && word.x0 - before.x1 > DASH_GAP * word.size ? `- ${word.text}` : word.text;
    })
    .join(' ')
    .replace(/^[\s|_\u2010-\u2015-]+|[\s|_\u2010-\u2015-]+$/g, '');
};

/**
 * The drawing index printed on a sheet: rows that start with a sheet number followed by a title, in columns
 * of at least MIN_ENTRIES rows (a two-column index is two such columns side by side). Words inside the title
 * block are left out. Empty when the sheet prints no index.
 */
export const readDrawingIndex = (words: readonly Word[], titleBlock: Box | null): DrawingIndexEntry[] => {
  const pool = words.filter((word) => word.dir === 0 && !(titleBlock && centerInside(titleBlock, word)));
  const entries: Array<DrawingIndexEntry & { x: number; y: number; size: number }> = [];
  for (const row of rowsOf(pool)) {
    let current: { number: string; x: number; y: number; size: number; words: Word[] } | null = null;
    const flush = (): void => {
      const title = current ? titleOf(current.words) : '';
      if (current && foldLine(title).length >= 3) entries.push({ ...current, title });
      current = null;
    };
    let previous: Word | null = null;
    for (const word of row) {
      const gap = previous ? word.x0 - previous.x1 : Number.POSITIVE_INFINITY;
      const number = indexNumberOf(word.text);
      if (number && gap > ENTRY_GAP * word.size) {
        flush();
        current = { number, x: word.x0, y: centerY(word), size: word.size, words: [] };
      } else if (current?.words.some(isTitleWord) && gap > COLUMN_GAP * word.size) flush();
      else current?.words.push(word);
      previous = word;
    }
    flush();
  }
  // Numbers lined up in a column (an index column, not a stray reference); columns read left to right.
  const columns: Array<typeof entries> = [];
  for (const entry of [...entries].sort((a, b) => a.x - b.x)) {
    const column = columns.at(-1);
    const last = column?.at(-1);
    if (column && last && entry.x - last.x <= 1.5 * entry.size) column.push(entry);
    else columns.push([entry]);
  }
  const inColumns = columns
    .filter((column) => column.length >= MIN_ENTRIES)
    .flatMap((column) => column.sort((a, b) => a.y - b.y));
  const distinct = new Set(inColumns.map((entry) => normalizeSheetNumber(entry.number)));
  if (distinct.size < MIN_ENTRIES) return [];
  return inColumns.map(({ number, title }) => ({ number, title }));
};

/** Whether two folded words are the same word read with at most one slip (for words of four letters or more). */
const sameWord = (first: string, second: string): boolean =>
  first === second || (Math.min(first.length, second.length) >= 4 && editDistance(first, second, 1) <= 1);

/** Short connecting words, which titles and indexes print or leave out as they like (`&` for `AND`). */
const CONNECTING_WORDS = new Set(['AND', 'OF', 'TO', 'AT', 'THE', 'ON', 'IN', 'FOR', 'ST', 'AVE']);

/**
 * The title a sheet takes, given its title-block reading and its index entry's title: the reading, unless it is
 * missing or holds only words of the index title and misses some of its words (OCR dropped or garbled lines
 * of the block), then the index title. A reading with words the index does not have is kept: the index
 * abbreviates, or names the sheet differently. Words are matched one to one, a slip allowed; a read word with
 * a slip is spelled as the index spells it when the set's other titles spell it so (`IWOOLSEY`, a cell border
 * read into the word, is `WOOLSEY` on other sheets; the index's own slips, `DRAWNGS`, are not taken).
 */
export const reconcileTitle = (
  reading: string | null,
  indexTitle: string,
  knownWord: (folded: string) => boolean = () => false,
): string => {
  if (!reading) return indexTitle;
  const indexWords = indexTitle.split(/\s+/);
  const foldedIndex = indexWords.map(foldLine);
  const used = new Set<number>();
  const spelled: string[] = [];
  for (const word of reading.split(/\s+/)) {
    const folded = foldLine(word);
    if (!folded) {
      spelled.push(word);
      continue;
    }
    const at = foldedIndex.findIndex(
      (candidate, index) => !used.has(index) && candidate && sameWord(folded, candidate),
    );
    if (at < 0) return reading;
    used.add(at);
    const indexWord = foldedIndex[at] ?? folded;
    spelled.push(indexWord !== folded && knownWord(indexWord) && !knownWord(folded) ? indexWord : word);
  }
  const missing = foldedIndex.filter(
    (word, index) => word && !used.has(index) && !CONNECTING_WORDS.has(word),
  );
  return missing.length > 0 ? indexTitle : spelled.join(' ');
};

/** The set's drawing index, with each entry's position by normalized number. */
export interface SetIndex {
  entries: DrawingIndexEntry[];
  positionOf: Map<string, number>;
}

/**
 * The drawing index of a set: the longest list its sheets print that is the index of this set, at least half of
 * the numbers read on its sheets in it. A column of tags and descriptions that is not an index (an
 * equipment schedule: `AHU-1 AIR HANDLING UNIT`) names none of the set's sheets.
 */
export const setDrawingIndex = (
  printed: ReadonlyArray<readonly DrawingIndexEntry[]>,
  readNumbers: readonly string[],
): SetIndex | null => {
  const read = [...new Set(readNumbers.map(normalizeSheetNumber))];
  // The longest list that is this set's index: a longer column of tags (a schedule) names none of its sheets.
  for (const list of [...printed].sort((a, b) => b.length - a.length)) {
    if (!list.length) break;
    const positionOf = new Map<string, number>();
    list.forEach((entry, position) => {
      const key = normalizeSheetNumber(entry.number);
      if (!positionOf.has(key)) positionOf.set(key, position);
    });
    const named = read.filter((number) => positionOf.has(number)).length;
    if (named > 0 && named >= 0.5 * read.length) return { entries: [...list], positionOf };
  }
  return null;
};

/**
 * Numbers for the sheets that have none, from the order of the index: the sheet right after the sheet at
 * position k (or right before the one at k) is the entry at k + 1 (k - 1), when the neighbours on both sides
 * agree and that entry names no sheet of the set yet. `numbers` are the sheets' numbers in page order.
 */
export const numbersFromIndexOrder = (
  numbers: ReadonlyArray<string | null>,
  index: SetIndex,
): Array<string | null> => {
  const used = new Set(numbers.flatMap((number) => (number ? [normalizeSheetNumber(number)] : [])));
  const positionAt = (at: number): number | undefined => {
    const number = numbers[at];
    return number ? index.positionOf.get(normalizeSheetNumber(number)) : undefined;
  };
  return numbers.map((number, at) => {
    if (number) return null;
    const before = positionAt(at - 1);
    const after = positionAt(at + 1);
    const fromBefore = before === undefined ? undefined : before + 1;
    const fromAfter = after === undefined ? undefined : after - 1;
    if (fromBefore !== undefined && fromAfter !== undefined && fromBefore !== fromAfter) return null;
    const entry = index.entries[fromBefore ?? fromAfter ?? -1];
    if (!entry || used.has(normalizeSheetNumber(entry.number))) return null;
    used.add(normalizeSheetNumber(entry.number));
    return entry.number;
  });
};

/** The parts of an index title between its dashes (`CURB RAMP DETAILS - WOOLSEY STREET AT COLBY STREET`). */
const partsOf = (title: string): string[] =>
  title
    .split(/\s+[-–—]+\s+/)
    .map((part) => part.trim())
    .filter(Boolean);

/** Orders of n parts, the given order first. */
const ordersOf = (parts: number): number[][] => {
  if (parts <= 1) return [[0]];
  return ordersOf(parts - 1).flatMap((order) =>
    Array.from({ length: parts }, (_, at) => [
      ...order.slice(0, parts - 1 - at),
      parts - 1,
      ...order.slice(parts - 1 - at),
    ]),
  );
};

/**
 * How the set's title blocks order the parts of their index titles (`X - Y` in the index printed `Y X` in the
 * block), learned from sheets where both were read, by the index title's first part.
 */
export const learnTitleOrders = (
  pairs: ReadonlyArray<{ reading: string; indexTitle: string }>,
): Map<string, number[]> => {
  const orders = new Map<string, number[]>();
  for (const { reading, indexTitle } of pairs) {
    const parts = partsOf(indexTitle);
    const key = foldLine(parts[0] ?? '');
    if (parts.length < 2 || parts.length > 4 || orders.has(key)) continue;
    const target = foldLine(reading);
    const order = ordersOf(parts.length).find(
      (candidate) => foldLine(candidate.map((at) => parts[at]).join(' ')) === target,
    );
    if (order) orders.set(key, order);
  }
  return orders;
};

/** An index title with its parts in the order the set's title blocks print them (see learnTitleOrders). */
export const inBlockOrder = (indexTitle: string, orders: ReadonlyMap<string, number[]>): string => {
  const parts = partsOf(indexTitle);
  const order = orders.get(foldLine(parts[0] ?? ''));
  if (!order || order.length !== parts.length) return indexTitle;
  return order.map((at) => parts[at]).join(' ');
};
