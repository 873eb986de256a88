import type { Revision } from '../../engine/model.ts';
import type { RevisionRowRelation } from './model.ts';

/**
 * Which of two revisions of a sheet is the later, from what their revision blocks print.
 *
 * A revision block prints one row per issue: a mark, a description, a date. Marks are numbers (`1`, `02`),
 * letters (`A`, `B`; `AA` after `Z`), deltas (`△1`, the triangle the revised area is tagged with), words
 * (`REV 2`, `REV. B`, `NO. 3`), or a series letter and a number (`P01` preliminary, `C01` for construction):
 * marks compare only within one series, since sets that letter their early issues and number the later ones
 * (or the reverse) do not agree on which kind comes first. Dates are printed the US way, month first
 * (`3/14/25`, `03-14-2025`, `3.14.2025`, `MARCH 14, 2025`, `MAR 14 2025`), or year first (`2025-03-14`); a
 * date whose first number cannot be a month (`28-04-16`) is read day first.
 */

export interface RevisionMark {
  /** '' for numbers, 'letter' for letters, the prefix letters of a coded mark (`P` of `P01`). */
  series: string;
  value: number;
}

export const parseRevisionMark = (mark: string): RevisionMark | null => {
  const bare = mark
    .toUpperCase()
    .replace(/[\u25B3\u25B2\u0394\u2206]/g, ' ')
    .replace(/\b(?:REVISIONS?|REV|NO|NUMBER|ISSUE)\b\.?/g, ' ')
    .replace(/[#:.]/g, ' ')
    .trim();
  if (/^\d{1,3}$/.test(bare)) return { series: '', value: Number(bare) };
  if (/^[A-Z]{1,2}$/.test(bare))
    return {
      series: 'letter',
      value: [...bare].reduce((sum, letter) => sum * 26 + (letter.charCodeAt(0) - 64), 0),
    };
  const coded = /^([A-Z]{1,2})[-\s]?(\d{1,3})$/.exec(bare);
  if (coded) return { series: coded[1] as string, value: Number(coded[2]) };
  return null;
};

const MONTHS = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'];

const fullYear = (year: number): number => (year >= 100 ? year : year < 70 ? 2000 + year : 1900 + year);

const dayNumber = (year: number, month: number, day: number): number | null => {
  if (month < 1 || month > 12 || day < 1 || day > 31) return null;
  const time = Date.UTC(fullYear(year), month - 1, day);
  return new Date(time).getUTCDate() === day ? time / 86_400_000 : null;
};

/** The date a revision row prints, as days since 1970-01-01; null when none can be read. */
export const parseRevisionDate = (text: string | null | undefined): number | null => {
  if (!text) return null;
  const upper = text.toUpperCase();
  const iso = /\b(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})\b/.exec(upper);
  if (iso) return dayNumber(Number(iso[1]), Number(iso[2]), Number(iso[3]));
  const numeric = /\b(\d{1,2})[-/.](\d{1,2})[-/.](\d{2}|\d{4})\b/.exec(upper);
  if (numeric) {
    const first = Number(numeric[1]);
    const second = Number(numeric[2]);
    const year = Number(numeric[3]);
    return first > 12 ? dayNumber(year, second, first) : dayNumber(year, first, second);
  }
  const monthFirst = /\b([A-Z]{3})[A-Z]*\.?\s+(\d{1,2})(?:ST|ND|RD|TH)?,?\s+(\d{4})\b/.exec(upper);
  const monthIndex = (name: string | undefined) => (name ? MONTHS.indexOf(name) + 1 : 0);
  if (monthFirst && monthIndex(monthFirst[1]) > 0)
    return dayNumber(Number(monthFirst[3]), monthIndex(monthFirst[1]), Number(monthFirst[2]));
  const dayFirst = /\b(\d{1,2})\s+([A-Z]{3})[A-Z]*\.?,?\s+(\d{4})\b/.exec(upper);
  if (dayFirst && monthIndex(dayFirst[2]) > 0)
    return dayNumber(Number(dayFirst[3]), monthIndex(dayFirst[2]), Number(dayFirst[1]));
  return null;
};

/** Positive when `second` is later than `first`, negative when earlier, 0 when the rows cannot tell. */
const compareRows = (first: Revision, second: Revision): { order: number; by: 'date' | 'mark' } | null => {
  const firstDate = parseRevisionDate(first.date);
  const secondDate = parseRevisionDate(second.date);
  if (firstDate !== null && secondDate !== null && firstDate !== secondDate)
    return { order: secondDate - firstDate, by: 'date' };
  const firstMark = parseRevisionMark(first.mark);
  const secondMark = parseRevisionMark(second.mark);
  if (
    firstMark &&
    secondMark &&
    firstMark.series === secondMark.series &&
    firstMark.value !== secondMark.value
  )
    return { order: secondMark.value - firstMark.value, by: 'mark' };
  return null;
};

/** A sheet's latest revision row: the one no other row of the block shows to be earlier. */
export const latestRevision = (revisions: readonly Revision[]): Revision | null => {
  let latest: Revision | null = null;
  for (const row of revisions) {
    // Rows the comparison cannot order keep the printed order: a block lists its rows in issue order.
    if (!latest || (compareRows(latest, row)?.order ?? 1) > 0) latest = row;
  }
  return latest;
};

/** What identifies a row across two printings of the block: its mark, else its date and description. */
const rowKey = (row: Revision): string => {
  const mark = parseRevisionMark(row.mark);
  if (mark) return `${mark.series}#${mark.value}`;
  const date = parseRevisionDate(row.date);
  const words = (text: string | null) =>
    (text ?? '')
      .toUpperCase()
      .replace(/[^A-Z0-9]+/g, ' ')
      .trim();
  return `${words(row.mark)}|${date ?? words(row.date)}|${words(row.description)}`;
};

/**
 * How the revision rows of a newer printing relate to an older one's: `extends` when it prints every row of
 * the older and more (a revision adds its row and keeps the history), `same`, `lacksOldRows` when an older
 * row is missing, `unknown` when neither prints a row.
 */
export const revisionRowRelation = (
  older: readonly Revision[],
  newer: readonly Revision[],
): RevisionRowRelation => {
  if (older.length === 0 && newer.length === 0) return 'unknown';
  const newerKeys = new Set(newer.map(rowKey));
  const olderKeys = new Set(older.map(rowKey));
  for (const key of olderKeys) if (!newerKeys.has(key)) return 'lacksOldRows';
  return newerKeys.size > olderKeys.size ? 'extends' : 'same';
};

export interface SheetPrinting {
  revisions: readonly Revision[];
  /** When the file that holds it was uploaded (any increasing number: epoch ms, a sequence). */
  uploadedAt: number;
}

export interface RevisionOrder {
  later: 'first' | 'second';
  /**
   * revisionRows: one printing's rows extend the other's; revisionDate / revisionMark: the latest rows'
   * dates or marks; uploadOrder: the rows could not tell, the later upload is taken.
   */
  by: 'revisionRows' | 'revisionDate' | 'revisionMark' | 'uploadOrder';
}

/**
 * Which of two printings of one sheet is the later: the one whose revision rows extend the other's, else the
 * one whose latest row is later by date, else by mark in the same series, else the later upload (the second
 * when both were uploaded together).
 */
export const laterPrinting = (first: SheetPrinting, second: SheetPrinting): RevisionOrder => {
  const forward = revisionRowRelation(first.revisions, second.revisions);
  const backward = revisionRowRelation(second.revisions, first.revisions);
  if (forward === 'extends') return { later: 'second', by: 'revisionRows' };
  if (backward === 'extends') return { later: 'first', by: 'revisionRows' };
  const firstLatest = latestRevision(first.revisions);
  const secondLatest = latestRevision(second.revisions);
  const compared = firstLatest && secondLatest ? compareRows(firstLatest, secondLatest) : null;
  if (compared)
    return {
      later: compared.order > 0 ? 'second' : 'first',
      by: compared.by === 'date' ? 'revisionDate' : 'revisionMark',
    };
  return { later: first.uploadedAt > second.uploadedAt ? 'first' : 'second', by: 'uploadOrder' };
};
