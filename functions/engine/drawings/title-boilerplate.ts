/**
 * Title-block lines that a set repeats on most of its sheets (the project name, the client, the firm) are not
 * sheet titles. OCR reads them differently from sheet to sheet (split at other places, a letter more or less),
 * so a line counts as repeated when it or a longer line holding it recurs, and a line that only differs from a
 * repeated one by an OCR slip is repeated too. A repeated line glued in front of or after a title is cut off.
 */

/** Letters and digits, upper case: how lines are compared. */
export const foldLine = (text: string): string => text.toUpperCase().replace(/[^A-Z0-9]/g, '');

/** Folded lines this long or longer also match inside longer lines (shorter ones are too generic). */
const MIN_PART_LENGTH = 10;
/**
 * Folded lines this long or longer also match inside longer lines with a slip (`nearlyInside`); a shorter
 * title shares too much with a project name by chance (`PAVEMENT RENOVATION PLAN`).
 */
const MIN_FUZZY_PART_LENGTH = 16;
/** File paths and addresses of the drawing file printed by the plotter are never titles. */
const FILE_PATH_RE = /[A-Z]:\\|\\[\w.-]+\\|\.dwg\b|https?:\/\/|www\./i;

/**
 * A folded line ending in the name of a kind of drawing (`PLAN AND PROFILE`, `CURB RAMP DETAILS`): many sheets
 * of a set carry it as (part of) their title, so its repeating does not make it the project's name.
 */
const NAMES_DRAWING_KIND_RE =
  /(?:PLANS?|PROFILES?|DETAILS?|SECTIONS?|ELEVATIONS?|NOTES|SCHEDULES?|DIAGRAMS?|LEGEND)$/;

/** Edit distance of two strings, or `limit + 1` as soon as it exceeds `limit`. */
export const editDistance = (source: string, target: string, limit: number): number => {
  if (Math.abs(source.length - target.length) > limit) return limit + 1;
  let previous = Array.from({ length: target.length + 1 }, (_, column) => column);
  for (let i = 1; i <= source.length; i++) {
    const current = [i];
    let rowBest = i;
    for (let j = 1; j <= target.length; j++) {
      const substitution = (previous[j - 1] ?? 0) + (source[i - 1] === target[j - 1] ? 0 : 1);
      const value = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, substitution);
      current.push(value);
      rowBest = Math.min(rowBest, value);
    }
    if (rowBest > limit) return limit + 1;
    previous = current;
  }
  return previous[target.length] ?? limit + 1;
};

const nearlyEqual = (first: string, second: string): boolean => {
  const limit = Math.max(1, Math.floor(0.1 * Math.max(first.length, second.length)));
  return editDistance(first, second, limit) <= limit;
};

/**
 * Whether `part` occurs in `whole` with at most one letter in 16 misread (edit distance against the best
 * matching stretch of `whole`): a piece of a repeated line that OCR split off and read with a slip
 * (`IPAVEMENT RENOVATION AND SEWER`, a cell border read as `I`).
 */
const nearlyInside = (part: string, whole: string): boolean => {
  const limit = Math.max(1, Math.floor(part.length / 16));
  // Row i of the table: the best edit distance of part[0..i) against a stretch of `whole` ending at j.
  let previous: number[] = new Array(whole.length + 1).fill(0);
  for (let i = 1; i <= part.length; i++) {
    const current = [i];
    for (let j = 1; j <= whole.length; j++) {
      const substitution = (previous[j - 1] ?? 0) + (part[i - 1] === whole[j - 1] ? 0 : 1);
      current.push(Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, substitution));
    }
    if (Math.min(...current) > limit) return false;
    previous = current;
  }
  return Math.min(...previous) <= limit;
};

/**
 * The text with `key` (folded) cut from its start or end by whole words; null when it does not start or end so.
 * At least two words are cut: one repeated word (`REPLACEMENT`, read alone where OCR split a project name) is
 * as likely a word of the title.
 */
const cutWords = (text: string, key: string): string | null => {
  const words = text.trim().split(/\s+/);
  for (let i = 2; i < words.length; i++) {
    if (foldLine(words.slice(0, i).join(' ')) === key) return words.slice(i).join(' ');
    if (foldLine(words.slice(words.length - i).join(' ')) === key)
      return words.slice(0, words.length - i).join(' ');
  }
  return null;
};

/**
 * Whether a line is read on every sheet of a set (three or more; folded, or with an OCR slip): a line naming a
 * kind of drawing that every sheet carries (`STANDARD PLAN`) names the set's kind. It is not dropped (a set of
 * plan-and-profile sheets prints `PLAN AND PROFILE` under every street name), but alone it is a weak title.
 */
export const onEverySheet = (
  linesPerSheet: ReadonlyArray<readonly string[]>,
): ((text: string) => boolean) => {
  const folded = linesPerSheet.map((lines) => lines.map(foldLine).filter(Boolean));
  return (text) => {
    const key = foldLine(text);
    return (
      folded.length >= 3 &&
      key.length > 0 &&
      folded.every((lines) =>
        lines.some((line) => line === key || (key.length >= MIN_PART_LENGTH && nearlyEqual(line, key))),
      )
    );
  };
};

/**
 * A cleaner for the title lines of a set, from the lines of each sheet: it returns the line without the set's
 * repeated text, or null when nothing of the line is a title.
 */
export const boilerplateCleaner = (
  linesPerSheet: ReadonlyArray<readonly string[]>,
): ((text: string) => string | null) => {
  const sheets = linesPerSheet.length;
  const folded = linesPerSheet.map((lines) => [...new Set(lines.map(foldLine).filter(Boolean))]);
  const threshold = Math.max(3, 0.5 * sheets);
  const repeated = new Set<string>();
  if (sheets >= 3) {
    const keys = new Set(folded.flat());
    for (const key of keys) {
      const holders = folded.filter((lines) =>
        lines.some((line) => line === key || (key.length >= MIN_PART_LENGTH && line.includes(key))),
      ).length;
      if (holders >= threshold && !NAMES_DRAWING_KIND_RE.test(key)) repeated.add(key);
    }
  }
  const longest = [...repeated]
    .filter((key) => key.length >= MIN_PART_LENGTH)
    .sort((a, b) => b.length - a.length);
  return (text) => {
    if (FILE_PATH_RE.test(text)) return null;
    const key = foldLine(text);
    if (!key || repeated.has(key)) return null;
    for (const other of longest) {
      if (key.length < MIN_PART_LENGTH) continue;
      if (other.includes(key) || nearlyEqual(key, other)) return null;
      if (key.length >= MIN_FUZZY_PART_LENGTH && nearlyInside(key, other)) return null;
    }
    for (const other of longest) {
      const rest = cutWords(text, other);
      if (rest !== null && foldLine(rest).length >= 3) return rest;
    }
    return text;
  };
};
