/**
 * Sheet-number candidates of a drawing sheet: every word (and two-word `TCP: 032` form) that matches a sheet-number
 * pattern, scored by the general rules of title blocks (no per-set tuning): the number sits in the bottom-right
 * corner or along the right or bottom edge, printed large, alone on its line, often under a label such as
 * SHEET NO / DRAWING NUMBER.
 */
import { type Box, boxOf, centerX, centerY, type Line, median, type Word } from '../geometry.ts';
import { frameOf } from '../layout.ts';
import { normalizeSheetNumber, parseCompoundSheetNumber, parseSheetNumber } from './sheet-number.ts';

export interface NumberCandidate {
  printed: string;
  prefix: string;
  normalized: string;
  box: Box;
  size: number;
  score: number;
  source: 'textLayer' | 'ocr';
  confidence: number | null;
  /**
   * Short parts printed just before the number on its line, in reading order (`4977`, `S` before an OCR'd
   * `DW08` whose underscores were lost): a set whose numbers share a head checks it against them.
   */
  head?: string[];
}

/** A candidate scoring this much is a convincing sheet number. */
export const GOOD_NUMBER_SCORE = 5;

/**
 * A number without letters (`87,168`, `4417`) is a sheet's identifier only in a cell labelled as one, the whole
 * label a number field (`FILE NO.`, `DWG NO.`): an `OLD FILE NO.` or a `CONTRACT NO.` names something else.
 */
const NUMERIC_ID_RE = /^(?:\d{1,3}(?:[,.]\d{3})+|\d{1,6})$/;
export const NUMERIC_ID_LABEL_RE =
  /^(?:DRAWING|DWG\.?|DRG\.?|SHEET|SHT\.?|FILE|PLAN)\s*(?:NO\.?|NUMBER|#)\s*:?$/i;
/**
 * Such a number scores this much less than a lettered one, and never counts as convincing (see
 * GOOD_NUMBER_SCORE): a lettered number read in the title block, or the set's numbering run, wins over it.
 */
const NUMERIC_ID_PENALTY = 4;
const NUMERIC_ID_MAX_SCORE = GOOD_NUMBER_SCORE - 0.1;
/** The label of another numbered field (`OLD FILE NO.`, `CONTRACT NO.`): the value under it is that field's. */
const OTHER_FIELD_LABEL_RE =
  /^(?:OLD|PREVIOUS|FORMER|SUPERSEDED|CONTRACT|PROJECT|JOB|BID|PERMIT)\b.*\b(?:NO|NUMBER|#)\.?\s*:?$|^REV(?:\.|ISION)?\s*(?:NO\.?|NUMBER|#)?\s*:?$/i;
const OTHER_FIELD_PENALTY = 4;

/** Whether a word reads as a sheet number, lettered or (with a label) not. */
export const readsAsNumber = (text: string): boolean =>
  parseSheetNumber(text) !== null || NUMERIC_ID_RE.test(text.replace(/[.,;]$/, ''));

/**
 * The labels of a sheet's number field. A sheet of standard details is numbered as a detail (`DETAIL NO.` as the
 * whole label of a title-block field; a detail's number in a callout or a view title is never labelled so).
 */
export const NUMBER_LABEL_RE =
  /^(?:SHEET|SHT\.?|DRAWING|DWG\.?|DRG\.?)\s*(?:NO\.?|NUMBER|#|NUM\.?)?:?$|^(?:SHEET|DRAWING)\s+(?:NO|NUMBER)|^NO\.?:?$|^(?:STANDARD\s+)?DETAIL\s*(?:NO\.?|NUMBER|#):?$/i;

/** Sheet-number candidates among words (and two-word `TCP: 032` forms), scored by position, size and labels. */
export const findNumberCandidates = (
  words: readonly Word[],
  lines: readonly Line[],
  pageWidth: number,
  pageHeight: number,
): NumberCandidate[] => {
  const sizes = words.filter((word) => word.dir === 0).map((word) => word.size);
  const typical = median(sizes) || 10;
  const labels = lines.filter(
    (line) =>
      NUMBER_LABEL_RE.test(line.text.trim()) || /\b(?:SHEET|DRAWING|DWG)\s*(?:NO|NUMBER|#)/i.test(line.text),
  );
  const numericLabels = lines.filter((line) => NUMERIC_ID_LABEL_RE.test(line.text.trim()));
  const otherFieldLabels = lines.filter((line) => OTHER_FIELD_LABEL_RE.test(line.text.trim()));
  const lineOf = new Map<Word, Line>();
  for (const line of lines) for (const word of line.words) lineOf.set(word, line);
  const candidates: NumberCandidate[] = [];
  const consider = (
    text: string,
    box: Box,
    size: number,
    line: Line | undefined,
    source: Word['source'],
    conf: number | null,
    dir: Word['dir'],
    /** The number is printed as `N OF M`, the sheet's place in a set of M: its own label. */
    ofTotal: Line | null = null,
  ) => {
    const numericLabel =
      ofTotal ?? (NUMERIC_ID_RE.test(text) ? labelOf(box, size, numericLabels, dir, 4) : null);
    const parsed =
      parseSheetNumber(text) ??
      (numericLabel ? { printed: text, prefix: '', normalized: normalizeSheetNumber(text) } : null) ??
      (labelOf(box, size, labels, dir, 4) ? parseCompoundSheetNumber(text) : null);
    if (!parsed) return;
    // Pure digit suffix with a one-letter prefix is common in drawings as grid bubbles (A1, B2): needs size.
    const cx = centerX(box) / pageWidth;
    const cy = centerY(box) / pageHeight;
    // Position: bottom-right corner is best; right or bottom edges next.
    const corner = Math.max(0, cx - 0.55) / 0.45 + Math.max(0, cy - 0.55) / 0.45;
    const edge = Math.max(cx > 0.8 ? 1 : 0, cy > 0.85 ? 1 : 0);
    let score = corner * 1.5 + edge;
    const rel = size / typical;
    score += Math.min(3, Math.max(0, rel - 1)) * 1.2;
    const alone = line ? line.words.length === 1 || line.text.trim() === text : true;
    if (alone) score += 1;
    else score -= 1;
    // A reference to another sheet (`SEE SHEET T-2`, `MATCH LINE ... SHEET R-2`) is never this sheet's number.
    if (!alone && line && /\b(?:SEE|REFER|MATCH\s*LINE|CONTINUED)\b/i.test(line.text)) score -= 3;
    // A label (SHEET NO, DRAWING NUMBER) just above or to the left.
    // The label right over a value names its field: under another field's label (`REVISION`, `CONTRACT NO.`)
    // the value is that field's, even when a number label stands nearby.
    const otherField = labelOf(box, size, otherFieldLabels, dir, 4);
    const ownField = otherField ? labelOf(box, size, labels, dir, 4) : null;
    const label = numericLabel ?? (otherField && !ownField ? null : labelOf(box, size, labels));
    if (label) score += 2.5;
    else if (otherField) score -= OTHER_FIELD_PENALTY;
    if (/^[A-Z]\d$/.test(parsed.printed)) score -= 1.2; // grid bubbles, keynote tags
    if (source === 'ocr' && conf !== null) score += (conf - 70) / 30;
    if (numericLabel) score = Math.min(score - NUMERIC_ID_PENALTY, NUMERIC_ID_MAX_SCORE);
    const head = dir === 0 ? headOf(words, box, size) : [];
    candidates.push({
      ...parsed,
      box,
      size,
      score,
      source,
      confidence: conf,
      ...(head.length ? { head } : {}),
    });
  };
  for (const word of words) {
    if (word.dir !== 0 && word.dir !== 90 && word.dir !== 270) continue;
    consider(
      word.text.replace(/[.,;]$/, ''),
      word,
      word.size,
      lineOf.get(word),
      word.source,
      word.confidence,
      word.dir,
    );
  }
  // `TCP: 032`-style numbers split over two words; `3 OF 23`, a sheet numbered by its place in the set.
  for (const [word, total] of placesInSet(words)) {
    const line = lineOf.get(total);
    if (line) consider(word.text, word, word.size, undefined, word.source, word.confidence, word.dir, line);
  }
  for (const line of lines) {
    for (let i = 0; i + 1 < line.words.length; i++) {
      const word = line.words[i];
      const nextWord = line.words[i + 1];
      if (!word || !nextWord) continue;
      if (/^[A-Z]{2,4}:$/.test(word.text) && /^\d{2,4}$/.test(nextWord.text)) {
        consider(
          `${word.text} ${nextWord.text}`,
          boxOf([word, nextWord]),
          Math.max(word.size, nextWord.size),
          undefined,
          word.source,
          word.confidence,
          word.dir,
        );
      }
    }
  }
  return candidates.sort((a, b) => b.score - a.score);
};

/** A part of a several-part identifier: letters and digits, at most eight. */
const PART_RE = /^[A-Z0-9]{1,8}$/;

/**
 * Up to three short parts printed right before `box` on its baseline, each within two sizes of the next (an
 * underscore read as a space leaves a wide gap). Looked for among all words, not the line: two OCR passes over
 * one cell put their readings on lines of their own.
 */
const headOf = (words: readonly Word[], box: Box, size: number): string[] => {
  const head: string[] = [];
  let next = box;
  while (head.length < 3) {
    const from = next;
    const before = words
      .filter(
        (word) =>
          word.dir === 0 &&
          PART_RE.test(word.text) &&
          word.x1 <= from.x0 + 0.2 * size &&
          from.x0 - word.x1 <= 2 * size &&
          Math.abs(centerY(word) - centerY(box)) < 0.4 * size &&
          Math.abs(word.size - size) < 0.3 * size,
      )
      .sort((first, second) => second.x1 - first.x1)[0];
    if (!before) break;
    head.unshift(before.text);
    next = before;
  }
  return head;
};

/**
 * `N OF M` printed as words in a row (the `OF` often smaller, so on a line of its own): pairs of the word `N`
 * and the word `M`, with 1 <= N <= M.
 */
const placesInSet = (words: readonly Word[]): Array<[Word, Word]> => {
  // In each word's reading frame, so that `1 OF 1` printed up a title strip counts too.
  const inRowAfter = (word: Word, next: Word): boolean => {
    if (next.dir !== word.dir) return false;
    const [a, b] = [frameOf(word.dir, word), frameOf(next.dir, next)];
    return (
      Math.abs(centerY(b) - centerY(a)) < 0.6 * Math.max(word.size, next.size) &&
      b.x0 > a.x0 &&
      b.x0 - a.x1 < 3 * Math.max(word.size, next.size)
    );
  };
  const counts = words.filter((word) => /^\d{1,3}$/.test(word.text));
  return words.flatMap((of) => {
    if (!/^OF$/i.test(of.text)) return [];
    const before = counts.find((word) => inRowAfter(word, of));
    const after = counts.find((word) => inRowAfter(of, word));
    if (!before || !after) return [];
    const place = Number(before.text);
    return place >= 1 && place <= Number(after.text) ? [[before, after] as [Word, Word]] : [];
  });
};

/**
 * The first of `labels` just above a word's box, or to its left on its line (within `leftReach` sizes); with
 * `dir` (a field's own label), only labels read in that direction and over the word itself.
 */
const labelOf = (
  box: Box,
  size: number,
  labels: readonly Line[],
  dir: Word['dir'] | null = null,
  leftReach = 12,
): Line | null =>
  labels.find((label) => {
    if (dir !== null && label.dir !== dir) return false;
    const dx = box.x0 - label.x1;
    const dy = box.y0 - label.y1;
    const above =
      dy > -size &&
      dy < 4 * size &&
      (dir === null
        ? label.x0 < box.x1 + 4 * size && label.x1 > box.x0 - 8 * size
        : label.x0 < box.x1 && label.x1 > box.x0 - size);
    const left = Math.abs(centerY(label) - centerY(box)) < size && dx > -size && dx < leftReach * size;
    return above || left;
  }) ?? null;
