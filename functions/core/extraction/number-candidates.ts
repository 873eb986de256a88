/**
 * Sheet-number candidates of a drawing sheet: every word (and two-word `TCP: 032` form) that matches a sheet-number
 * pattern, scored by the general rules of title blocks (no per-set tuning): the number sits in the bottom-right
 * corner or along the right or bottom edge, printed large, alone on its line, often under a label such as
 * SHEET NO / DRAWING NUMBER.
 */
import { type Box, boxOf, centerX, centerY, type Line, median, type Word } from './geometry.ts';
import { parseSheetNumber } from './sheet-number.ts';

export interface NumberCandidate {
  printed: string;
  prefix: string;
  normalized: string;
  box: Box;
  size: number;
  score: number;
  source: 'textLayer' | 'ocr';
  confidence: number | null;
}

/** A candidate scoring this much is a convincing sheet number. */
export const GOOD_NUMBER_SCORE = 5;

export const NUMBER_LABEL_RE =
  /^(?:SHEET|SHT\.?|DRAWING|DWG\.?|DRG\.?)\s*(?:NO\.?|NUMBER|#|NUM\.?)?:?$|^(?:SHEET|DRAWING)\s+(?:NO|NUMBER)|^NO\.?:?$/i;

/** Sheet-number candidates among words (and two-word `TCP: 032` forms), scored by position, size and labels. */
export const findNumberCandidates = (
  words: readonly Word[],
  lines: readonly Line[],
  pageWidth: number,
  pageHeight: number,
): NumberCandidate[] => {
  const sizes = words.filter((w) => w.dir === 0).map((w) => w.size);
  const typical = median(sizes) || 10;
  const labels = lines.filter(
    (l) => NUMBER_LABEL_RE.test(l.text.trim()) || /\b(?:SHEET|DRAWING|DWG)\s*(?:NO|NUMBER|#)/i.test(l.text),
  );
  const lineOf = new Map<Word, Line>();
  for (const l of lines) for (const w of l.words) lineOf.set(w, l);
  const candidates: NumberCandidate[] = [];
  const consider = (
    text: string,
    box: Box,
    size: number,
    line: Line | undefined,
    source: Word['source'],
    conf: number | null,
  ) => {
    const parsed = parseSheetNumber(text);
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
    for (const label of labels) {
      const dx = box.x0 - label.x1;
      const dy = box.y0 - label.y1;
      const above =
        dy > -size && dy < 4 * size && label.x0 < box.x1 + 4 * size && label.x1 > box.x0 - 8 * size;
      const left = Math.abs(centerY(label) - centerY(box)) < size && dx > -size && dx < 12 * size;
      if (above || left) {
        score += 2.5;
        break;
      }
    }
    if (/^[A-Z]\d$/.test(parsed.printed)) score -= 1.2; // grid bubbles, keynote tags
    if (/^\d/.test(parsed.printed)) score -= 5;
    if (source === 'ocr' && conf !== null) score += (conf - 70) / 30;
    candidates.push({ ...parsed, box, size, score, source, confidence: conf });
  };
  for (const w of words) {
    if (w.dir !== 0 && w.dir !== 90 && w.dir !== 270) continue;
    consider(w.text.replace(/[.,;]$/, ''), w, w.size, lineOf.get(w), w.source, w.confidence);
  }
  // `TCP: 032`-style numbers split over two words.
  for (const l of lines) {
    for (let i = 0; i + 1 < l.words.length; i++) {
      const a = l.words[i];
      const b = l.words[i + 1];
      if (!a || !b) continue;
      if (/^[A-Z]{2,4}:$/.test(a.text) && /^\d{2,4}$/.test(b.text)) {
        consider(
          `${a.text} ${b.text}`,
          boxOf([a, b]),
          Math.max(a.size, b.size),
          undefined,
          a.source,
          a.confidence,
        );
      }
    }
  }
  return candidates.sort((a, b) => b.score - a.score);
};
