/**
 * A column of a schedule holds one kind of value, printed one way: lengths in feet and inches (`2'-7"`, US
 * drawing convention: inches 0 to 11, a fraction after them), or sizes in inches (`24"`). OCR of a CAD stroke
 * font reads the foot and inch marks of such values inconsistently (`1'` as `r`, `"` as `°`, `*`, `7` or
 * nothing), so a column read by OCR whose cells mostly read as one of these kinds, and that shows the kind's
 * mark in at least one cell, has each of its cells written in the kind's form. The column is the evidence: a
 * lone `2-3` is left as read.
 */

import { type TableRead, tableColumnNames } from './tables.ts';

/** Marks OCR reads for a foot or inch mark (primes, quotes, a degree sign, an asterisk). */
const MARK = `'"’‘′”“″°*\`!¢`;
const FOOT_MARK = /['’′‘`]/;
const INCH_MARK = /["”″“]/;

const escaped = MARK.replace(/[\\\]^-]/g, '\\$&');
/** Feet, a foot mark (or the `r` a CAD font's `1'` reads as), a dash, inches, a fraction, an inch mark. */
const FEET_INCHES = new RegExp(
  `^(\\d{1,3}|r)(?:[${escaped}]{1,2}|r)?\\s*[-–—_~]\\s*([0-9oO]{1,3})((?:\\s\\d{1,2}/\\d{1,2})?)\\s*([${escaped}]{0,2}|r)$`,
);
/** A whole or fractional number of inches, with an inch mark or what OCR read for it. */
const INCHES = new RegExp(`^(\\d{1,3}(?:\\s\\d{1,2}/\\d{1,2})?)\\s*([${escaped}]{0,2})$`);

/** Share of a column's filled cells that must read as the kind. */
const KIND_SHARE = 0.6;

/** `text` as feet and inches (`1'-4"`), or null when it does not read as such. */
export const feetAndInches = (text: string): string | null => {
  const match = FEET_INCHES.exec(text.trim());
  if (!match) return null;
  const feet = match[1] === 'r' ? '1' : (match[1] ?? '');
  let inches = (match[2] ?? '').replace(/[oO]/g, '0');
  // Inches run from 0 to 11 and are printed without a leading zero: a third digit, a 12 and over or a digit
  // after a leading zero is the inch mark read as a `7` or a `1`.
  if ((Number(inches) > 11 || /^0\d/.test(inches)) && /[71]$/.test(inches)) inches = inches.slice(0, -1);
  if (/^0\d/.test(inches)) return null;
  if (!inches || Number(inches) > 11) return null;
  return `${feet}'-${inches}${match[3] ?? ''}"`;
};

/** `text` as inches (`24"`), or null. */
export const inchesOnly = (text: string): string | null => {
  const match = INCHES.exec(text.trim());
  return match ? `${match[1]}"` : null;
};

/** A foot and an inch digit whose foot mark and dash OCR lost (`70°` for `7'-0"`): only in a column of lengths. */
const DASHLESS = new RegExp(`^(\\d)(\\d)[${escaped}]{1,2}$`);
const dashless = (text: string): string | null => {
  const match = DASHLESS.exec(text.trim());
  return match ? `${match[1]}'-${match[2]}"` : null;
};

/** Letters OCR reads for digits of a CAD stroke font (`8` as `g` or `B`, `0` as `O`, `1` as `l`, `5` as `S`). */
const LOOKALIKE: Record<string, string> = { O: '0', o: '0', l: '1', I: '1', S: '5', B: '8', g: '8', Z: '2' };
const LOOKALIKE_INCHES = new RegExp(`^([0-9OolISBgZ]{1,2})(?:[${escaped}]{1,2}|r)$`);
/** A size in inches whose digits OCR read as look-alike letters (`gr` for `8"`): only in a column of sizes. */
const lookalikeInches = (text: string): string | null => {
  const match = LOOKALIKE_INCHES.exec(text.trim());
  if (!match) return null;
  return `${[...(match[1] ?? '')].map((char) => LOOKALIKE[char] ?? char).join('')}"`;
};

/** The kinds of value a column may hold. */
export type ValueKind = 'feetInches' | 'inches';

const KINDS: Record<
  ValueKind,
  {
    read: (text: string) => string | null;
    shown: (text: string) => boolean;
    lost: (text: string) => string | null;
  }
> = {
  feetInches: {
    read: feetAndInches,
    shown: (text) => FOOT_MARK.test(text) || /^r\s*-/.test(text.trim()),
    lost: dashless,
  },
  inches: {
    read: inchesOnly,
    shown: (text) => INCH_MARK.test(text) && !FOOT_MARK.test(text),
    lost: lookalikeInches,
  },
};

/**
 * The kind of value a column read by OCR holds (see above): most of its filled cells read as the kind and one
 * shows the kind's mark. In a column of lengths, `r-0` (the CAD font's `1'` read as `r` before a dash) shows
 * the foot mark too. `known`: the kind the same column of a table printing the same headings showed (a sheet's
 * tables of one family share their columns' kinds), which then needs no mark of its own.
 */
export const columnKind = (texts: readonly string[], known: ValueKind | null = null): ValueKind | null => {
  const filled = texts.filter((text) => text.trim());
  if (filled.length < 2) return null;
  for (const name of ['feetInches', 'inches'] as const) {
    const kind = KINDS[name];
    const read = filled.filter((text) => kind.read(text) !== null);
    if (read.length < KIND_SHARE * filled.length) continue;
    if (known === name || read.some(kind.shown)) return name;
  }
  return null;
};

/**
 * The cells of one column read by OCR, each written in the column's kind of value (columnKind); other columns
 * come back as given. In a column of lengths, a cell of two digits and a mark is a length whose foot mark and
 * dash were lost; in a column of sizes, a digit read as a look-alike letter is that digit (`gr` is `8"`).
 */
export const repairColumnValues = (texts: readonly string[], known: ValueKind | null = null): string[] => {
  const name = columnKind(texts, known);
  if (!name) return [...texts];
  const kind = KINDS[name];
  return texts.map((text) => kind.read(text) ?? kind.lost(text) ?? text);
};

/**
 * Two tables of a sheet that print the same headings (as many columns, and at least half of the headings read
 * in both the same) are one family: a pipe schedule repeated for each bend or each pressure.
 */
export const sameHeadings = (
  first: Pick<TableRead, 'header' | 'columnCount'>,
  second: Pick<TableRead, 'header' | 'columnCount'> | undefined,
): boolean => {
  if (!second || second === first || second.columnCount !== first.columnCount) return false;
  const a = tableColumnNames(first);
  const b = tableColumnNames(second);
  const same = a.filter((name, column) => name.trim() !== '' && name.trim() === b[column]?.trim()).length;
  return same >= first.columnCount / 2;
};
