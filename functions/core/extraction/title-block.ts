/**
 * Title block of a drawing sheet: where it is, the sheet number in it, and the candidate sheet titles.
 *
 * General rules (no per-set tuning): title blocks sit along the right or bottom edge, most often in the
 * bottom-right corner; the sheet number is a short token matching a sheet-number pattern, printed large,
 * alone on its line, often under a label such as SHEET NO / DRAWING NUMBER; the sheet title is the
 * largest non-label text next to it (under a DRAWING TITLE / SHEET TITLE label when there is one).
 */
import {
  type Box,
  boxOf,
  centerX,
  centerY,
  height,
  type Line,
  median,
  type Word,
  width,
} from './geometry.ts';
import type { Ruling } from './rulings.ts';
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

export interface TitleCandidate {
  text: string;
  lines: string[];
  box: Box;
  size: number;
  score: number;
}

const NUMBER_LABEL_RE =
  /^(?:SHEET|SHT\.?|DRAWING|DWG\.?|DRG\.?)\s*(?:NO\.?|NUMBER|#|NUM\.?)?:?$|^(?:SHEET|DRAWING)\s+(?:NO|NUMBER)|^NO\.?:?$/i;
const TITLE_LABEL_RE = /^(?:SHEET|DRAWING|DWG\.?)?\s*TITLE:?$|^(?:SHEET|DRAWING)\s+(?:TITLE|NAME):?$/i;
/** Title-block field labels and boilerplate that are never the sheet title. */
const NOT_TITLE_RE =
  /^(?:PROJECT|PROJECT\s+(?:NO|NUMBER|TITLE|NAME)|JOB|DATE|SCALE|DRAWN|CHECKED|DESIGNED|APPROVED|REVIEWED|SHEET|OF|REV|REVISION|REVISIONS|ISSUE|ISSUED|PHASE|LOCATION|CLIENT|OWNER|BUILDING\s+NUMBER|DRAWING\s+NUMBER|CONSULTANT|ARCHITECT|ENGINEER|STAMP|SEAL|NORTH|KEY\s*PLAN|NO\.?|DESCRIPTION|BY|CHK|APP|DWN|MARK|COPYRIGHT)\b[\s:#.]*$/i;
const FIELD_LABEL_WORDS = new Set(
  'DATE ISSUE ISSUED DRAWN CHECKED DESIGNED APPROVED REVIEWED BY PROJECT NUMBER NO NO. SCALE SHEET SHEETS TITLE REV REV. REVISION JOB FILE NAME PLOT CAD DWG DRAWING PHASE OF CHK DWN APP SUBMITTAL SET KEY PLAN CONTRACT ID ID. ID, NO, UNITS MEASUREMENT'.split(
    ' ',
  ),
);
const isFieldLabelLine = (t: string): boolean =>
  t
    .toUpperCase()
    .replace(/[:#]/g, ' ')
    .split(/\s+/)
    .filter(Boolean)
    .every((w) => FIELD_LABEL_WORDS.has(w));

const DATE_RE =
  /\b\d{1,2}[/.-]\d{1,2}[/.-]\d{2,4}\b|\b(?:JAN|FEB|MAR|APR|MAY|JUN|JUL|AUG|SEP|OCT|NOV|DEC)[A-Z]*\.?\s+\d{1,2},?\s+\d{4}\b/i;
export const SCALE_TEXT_RE =
  /(?:\d+\s+)?\d+(?:\/\d+)?\s*["”″]\s*=\s*\d+\s*['’′]\s*-?\s*\d*(?:\s*\d+\/\d+)?\s*["”″]?|\b1\s*:\s*\d{1,5}\b|\bN\.?T\.?S\.?\b|NOT\s+TO\s+SCALE|\b1"\s*=\s*\d+'/i;

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
      const a = l.words[i]!;
      const b = l.words[i + 1]!;
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

/**
 * The title block's box: the strip along the right or bottom edge that holds the sheet number, found
 * as an empty band (no text) separating it from the drawing; else a cluster of text around the number.
 */
export const findTitleBlock = (
  words: readonly Word[],
  number: Box | null,
  pageWidth: number,
  pageHeight: number,
  rulings: readonly Ruling[] = [],
): Box | null => {
  const anchor = number ?? {
    x0: pageWidth * 0.85,
    y0: pageHeight * 0.85,
    x1: pageWidth * 0.95,
    y1: pageHeight * 0.95,
  };
  const ruled = titleBlockFromRulings(rulings, anchor, pageWidth, pageHeight, words);
  if (ruled) return ruled;
  if (words.length === 0) return null;
  const right = stripFromRight(words, anchor, pageWidth, pageHeight);
  const bottom = stripFromBottom(words, anchor, pageWidth, pageHeight);
  let strip: Box | null = null;
  if (right && bottom) {
    // A bottom band whose words sit mostly inside the right strip's columns is just the foot of that
    // strip (with a few view titles at the left): the strip is the title block. A real bottom title band
    // carries its fields along its whole length.
    const bandWords = words.filter((w) => w.y0 >= bottom.y0);
    const inStrip = bandWords.filter((w) => w.x0 >= right.x0 - 2).length;
    strip = height(right) >= pageHeight * 0.6 && inStrip >= 0.6 * bandWords.length ? right : bottom;
  } else {
    strip = right && height(right) >= pageHeight * 0.6 ? right : (bottom ?? null);
  }
  if (strip) return strip;
  return clusterAround(words, anchor, pageWidth, pageHeight);
};

/**
 * Collinear rulings (same axis, within 3 pt) joined into one line from the first start to the last end when
 * they cover at least 40% of that span, so a frame line drawn as separate cell edges counts as long.
 */
const joinCollinear = (rulings: readonly Ruling[]): Ruling[] => {
  const out: Ruling[] = [];
  for (const axis of ['h', 'v'] as const) {
    const list = rulings.filter((r) => r.axis === axis).sort((a, b) => a.at - b.at);
    let group: Ruling[] = [];
    const flush = (): void => {
      if (!group.length) return;
      const from = Math.min(...group.map((r) => r.from));
      const to = Math.max(...group.map((r) => r.to));
      const covered = group.reduce((sum, r) => sum + (r.to - r.from), 0);
      const at = group.reduce((sum, r) => sum + r.at * (r.to - r.from), 0) / Math.max(1e-6, covered);
      out.push(
        covered >= 0.4 * (to - from)
          ? { axis, at, from, to }
          : group.reduce((a, b) => (b.to - b.from > a.to - a.from ? b : a)),
      );
      group = [];
    };
    for (const r of list) {
      if (group.length && r.at - group[0]!.at > 3) flush();
      group.push(r);
    }
    flush();
  }
  return out;
};

/** Right and bottom limits of the sheet: the innermost border lines beyond the anchor, else the page edge. */
const sheetEdges = (
  rulings: readonly Ruling[],
  anchor: Box,
  pageWidth: number,
  pageHeight: number,
): { right: number; bottom: number } => ({
  right: Math.min(
    pageWidth,
    ...rulings
      .filter((r) => r.axis === 'v' && r.at > anchor.x1 && r.to - r.from >= pageHeight * 0.5)
      .map((r) => r.at),
  ),
  bottom: Math.min(
    pageHeight,
    ...rulings
      .filter((r) => r.axis === 'h' && r.at > anchor.y1 && r.to - r.from >= pageWidth * 0.4)
      .map((r) => r.at),
  ),
});

/**
 * A block in the bottom-right corner: a vertical line and a horizontal line that meet at its top-left
 * corner and run to the sheet's right and bottom edges, enclosing the sheet number. The largest such block
 * (its cells form smaller corners) under a third of the page.
 */
const cornerBlock = (
  rulings: readonly Ruling[],
  anchor: Box,
  pageWidth: number,
  pageHeight: number,
): Box | null => {
  const edges = sheetEdges(rulings, anchor, pageWidth, pageHeight);
  const verticals = rulings.filter(
    (r) =>
      r.axis === 'v' &&
      r.at > pageWidth * 0.4 &&
      r.at < anchor.x0 &&
      r.from < anchor.y0 &&
      r.to >= edges.bottom - 5,
  );
  const horizontals = rulings.filter(
    (r) =>
      r.axis === 'h' &&
      r.at > pageHeight * 0.3 &&
      r.at < anchor.y0 &&
      r.from < anchor.x0 &&
      r.to >= edges.right - 5,
  );
  let best: Box | null = null;
  for (const v of verticals) {
    for (const h of horizontals) {
      if (Math.abs(h.at - v.from) > 3 || Math.abs(h.from - v.at) > 3) continue;
      const box = { x0: v.at, y0: h.at, x1: edges.right, y1: edges.bottom };
      if (width(box) * height(box) > pageWidth * pageHeight * 0.33) continue;
      if (!best || width(box) * height(box) > width(best) * height(best)) best = box;
    }
  }
  return best;
};

/**
 * From the drawing's long lines: the vertical line nearest left of the number (a right-hand strip) or the
 * horizontal line nearest above it (a bottom band), whichever encloses the smaller area. The sheet border
 * lies outside the number, so it is never picked.
 */
const titleBlockFromRulings = (
  input: readonly Ruling[],
  anchor: Box,
  pageWidth: number,
  pageHeight: number,
  words: readonly Word[],
): Box | null => {
  let rulings = input;
  if (rulings.length === 0) return null;
  const corner = cornerBlock(rulings, anchor, pageWidth, pageHeight);
  if (corner) return corner;
  // Title-block frame lines are often drawn cell by cell: join collinear pieces (gaps allowed) first.
  rulings = joinCollinear(rulings);
  const verticals = rulings.filter(
    (r) =>
      r.axis === 'v' &&
      r.to - r.from >= pageHeight * 0.5 &&
      r.at > pageWidth * 0.6 &&
      r.at < anchor.x0 - 2 &&
      r.from < anchor.y0 &&
      r.to > anchor.y0,
  );
  const horizontals = rulings.filter(
    (r) =>
      r.axis === 'h' &&
      r.to - r.from >= pageWidth * 0.4 &&
      r.at > pageHeight * 0.6 &&
      r.at < anchor.y0 - 2 &&
      r.from < anchor.x0 &&
      r.to > anchor.x1,
  );
  const borderRight = Math.min(
    pageWidth,
    ...rulings
      .filter((r) => r.axis === 'v' && r.at > anchor.x1 && r.to - r.from >= pageHeight * 0.5)
      .map((r) => r.at),
  );
  const borderBottom = Math.min(
    pageHeight,
    ...rulings
      .filter((r) => r.axis === 'h' && r.at > anchor.y1 && r.to - r.from >= pageWidth * 0.4)
      .map((r) => r.at),
  );
  const v = verticals.sort((a, b) => b.at - a.at)[0];
  const h = horizontals.sort((a, b) => b.at - a.at)[0];
  const right =
    v && borderRight - v.at <= pageWidth * 0.3 ? { x0: v.at, y0: v.from, x1: borderRight, y1: v.to } : null;
  const bottom =
    h && borderBottom - h.at <= pageHeight * 0.3
      ? { x0: h.from, y0: h.at, x1: h.to, y1: borderBottom }
      : null;
  if (right && bottom) {
    // Both a right strip and a bottom band: a real bottom title band carries fields along its length; a
    // band holding only a few words left of the strip (grid labels, a view title) is not the title block.
    const outside = words.filter((w) => w.y0 >= bottom.y0 - 1 && w.x1 < right.x0 && w.x0 >= bottom.x0 - 1);
    const letters = outside.reduce((n, w) => n + w.text.replace(/[^A-Za-z]/g, '').length, 0);
    return letters >= 40 ? bottom : right;
  }
  return right ?? bottom;
};

const BAND = 12;

/** A vertical strip [x, pageWidth] containing the anchor, separated from the drawing by an empty band. */
const stripFromRight = (
  words: readonly Word[],
  anchor: Box,
  pageWidth: number,
  pageHeight: number,
): Box | null => {
  const occupied = new Uint8Array(Math.ceil(pageWidth / 2) + 1);
  for (const w of words) {
    if (height(w) > pageHeight * 0.5) continue;
    for (let x = Math.floor(w.x0 / 2); x <= Math.ceil(w.x1 / 2) && x < occupied.length; x++) occupied[x] = 1;
  }
  let gapRun = 0;
  for (let x = Math.floor(anchor.x0 / 2) - 1; x > (pageWidth * 0.55) / 2; x--) {
    if (occupied[x]) {
      gapRun = 0;
      continue;
    }
    gapRun++;
    if (gapRun * 2 >= BAND) {
      const x0 = (x + gapRun) * 2 - 2;
      const inside = words.filter((w) => w.x0 >= x0);
      if (inside.length < 3) return null;
      const b = boxOf(inside);
      if (height(b) < pageHeight * 0.35) return null;
      return {
        x0,
        y0: Math.max(0, b.y0 - 4),
        x1: Math.min(pageWidth, b.x1 + 4),
        y1: Math.min(pageHeight, b.y1 + 4),
      };
    }
  }
  return null;
};

/** A horizontal strip [y, pageHeight] containing the anchor, separated from the drawing by an empty band. */
const stripFromBottom = (
  words: readonly Word[],
  anchor: Box,
  pageWidth: number,
  pageHeight: number,
): Box | null => {
  // Only words spanning most of the width matter for the band: check rows over the page's full width.
  const occupied = new Uint8Array(Math.ceil(pageHeight / 2) + 1);
  for (const w of words) {
    if (width(w) > pageWidth * 0.5) continue;
    for (let y = Math.floor(w.y0 / 2); y <= Math.ceil(w.y1 / 2) && y < occupied.length; y++) occupied[y] = 1;
  }
  let gapRun = 0;
  for (let y = Math.floor(anchor.y0 / 2) - 1; y > (pageHeight * 0.6) / 2; y--) {
    if (occupied[y]) {
      gapRun = 0;
      continue;
    }
    gapRun++;
    if (gapRun * 2 >= BAND) {
      const y0 = (y + gapRun) * 2 - 2;
      const inside = words.filter((w) => w.y0 >= y0);
      if (inside.length < 3) return null;
      const b = boxOf(inside);
      if (width(b) < pageWidth * 0.45) return null;
      return {
        x0: Math.max(0, b.x0 - 4),
        y0,
        x1: Math.min(pageWidth, b.x1 + 4),
        y1: Math.min(pageHeight, b.y1 + 4),
      };
    }
  }
  return null;
};

/** Words linked to the anchor by small gaps (single-link clustering), limited to the bottom-right area. */
const clusterAround = (words: readonly Word[], anchor: Box, pageWidth: number, pageHeight: number): Box => {
  const pool = words.filter((w) => centerX(w) > pageWidth * 0.45 && centerY(w) > pageHeight * 0.35);
  const inCluster = new Set<Word>();
  let frontier: Box[] = [anchor];
  let box = { ...anchor };
  for (let round = 0; round < 40 && frontier.length; round++) {
    const next: Box[] = [];
    for (const w of pool) {
      if (inCluster.has(w)) continue;
      const reach = Math.max(18, 2.5 * w.size);
      for (const f of frontier) {
        const dx = Math.max(0, Math.max(f.x0 - w.x1, w.x0 - f.x1));
        const dy = Math.max(0, Math.max(f.y0 - w.y1, w.y0 - f.y1));
        if (dx <= reach && dy <= reach) {
          inCluster.add(w);
          next.push(w);
          break;
        }
      }
    }
    frontier = next;
    if (next.length) box = boxOf([box, ...next]);
  }
  return box;
};

const letters = (t: string): number => t.replace(/[^A-Za-z]/g, '').length;

export interface TitleLine {
  text: string;
  box: Box;
  size: number;
  /** Bonus for sitting under or right of a DRAWING TITLE / SHEET TITLE label. */
  labelBonus: number;
}

const ORGANIZATION_RE =
  /\b(?:COMMISSION|DEPARTMENT|DIVISION|BUREAU|AGENCY|AUTHORITY|(?:CITY|COUNTY|STATE|TOWN|VILLAGE)\s+OF|PUBLIC\s+WORKS|ARCHITECTURE|ARCHITECTS?|ENGINEERS|ENGINEERING|CONSULTANTS?|ASSOCIATES|INC\.?|LLC|CORP\.?|L\.?L\.?P\.?|P\.?C\.?)(?=\W|$)/i;
const DRAWING_WORD_RE =
  /\b(?:PLANS?|DETAILS?|ELEVATIONS?|SECTIONS?|SCHEDULES?|NOTES|LEGEND|INDEX|PROFILES?|DIAGRAMS?|LAYOUT|SITE|COVER)\b/i;

/** Lines of the title block that could be (part of) the sheet title, with the label evidence for each. */
export const findTitleLines = (
  lines: readonly Line[],
  number: NumberCandidate | null,
  titleBlock: Box | null,
  pageWidth: number,
  pageHeight: number,
): TitleLine[] => {
  if (!number) return [];
  const nb = number.box;
  const area = titleBlock ?? { x0: pageWidth * 0.6, y0: pageHeight * 0.6, x1: pageWidth, y1: pageHeight };
  const dir = lines.find((l) => l.words.some((w) => w.x0 === nb.x0 && w.y0 === nb.y0))?.dir ?? 0;
  const inArea = lines.filter(
    (l) =>
      l.dir === dir &&
      centerX(l) >= area.x0 - 2 &&
      centerX(l) <= area.x1 + 2 &&
      centerY(l) >= area.y0 - 2 &&
      centerY(l) <= area.y1 + 2,
  );
  const titleLabels = inArea.filter((l) => TITLE_LABEL_RE.test(l.text.trim()));
  const out: TitleLine[] = [];
  for (const l of inArea) {
    const t = l.text.trim();
    if (letters(t) < 3) continue;
    if (l.words.some((w) => w.x0 === nb.x0 && w.y0 === nb.y0)) continue;
    if (NOT_TITLE_RE.test(t) || TITLE_LABEL_RE.test(t) || NUMBER_LABEL_RE.test(t) || isFieldLabelLine(t))
      continue;
    if (DATE_RE.test(t) && letters(t) < 12) continue;
    if (SCALE_TEXT_RE.test(t) && letters(t) < 12) continue;
    if (
      /\b(?:STREET|AVE(?:NUE)?|SUITE|BLVD|TEL|FAX|PHONE)\b|WWW\.|@|\d{3}[.-]\d{3}[.-]\d{4}/i.test(t) &&
      /\d/.test(t) &&
      !DRAWING_WORD_RE.test(t)
    )
      continue;
    if (ORGANIZATION_RE.test(t) && !DRAWING_WORD_RE.test(t)) continue;
    if (/^\d/.test(t) && letters(t) < 6) continue;
    let labelBonus = 0;
    for (const label of titleLabels) {
      const below =
        l.y0 >= label.y0 - 2 &&
        l.y0 - label.y1 < 4 * label.size &&
        l.x0 < label.x1 + 200 &&
        l.x1 > label.x0 - 20;
      const right =
        Math.abs(centerY(label) - centerY(l)) < label.size &&
        l.x0 > label.x0 &&
        l.x0 - label.x1 < 12 * label.size;
      if (below || right) labelBonus = 3;
    }
    out.push({ text: t, box: { x0: l.x0, y0: l.y0, x1: l.x1, y1: l.y1 }, size: l.size, labelBonus });
  }
  return out;
};

/**
 * Ranks title candidates: vertically adjacent lines of the same size and alignment are joined (multi-line
 * titles), then scored by size, nearness to the number and label evidence. `isBoilerplate` removes lines
 * known (from the rest of the set) not to be titles before joining.
 */
export const rankTitleCandidates = (
  lines: readonly TitleLine[],
  number: NumberCandidate,
  isBoilerplate: (text: string) => boolean = () => false,
): TitleCandidate[] => {
  const nb = number.box;
  const usable = lines.filter((l) => !isBoilerplate(l.text));
  const sorted = [...usable].sort((a, b) => a.box.y0 - b.box.y0 || a.box.x0 - b.box.x0);
  const groups: TitleLine[][] = [];
  for (const l of sorted) {
    const g = groups.find((grp) => {
      const last = grp[grp.length - 1]!;
      const gap = l.box.y0 - last.box.y1;
      const sameSize = Math.abs(l.size - last.size) <= 0.15 * Math.max(l.size, last.size);
      const overlap = Math.min(l.box.x1, last.box.x1) - Math.max(l.box.x0, last.box.x0) > -l.size;
      return sameSize && overlap && gap > -0.3 * l.size && gap < 0.9 * l.size;
    });
    if (g) g.push(l);
    else groups.push([l]);
  }
  const maxSize = Math.max(1, ...usable.map((l) => l.size));
  return groups
    .filter((g) => g.length <= 4)
    .map((g) => {
      const box = boxOf(g.map((l) => l.box));
      const size = Math.max(...g.map((l) => l.size));
      const text = g.map((l) => l.text).join(' ');
      const dx = Math.max(0, Math.max(box.x0 - nb.x1, nb.x0 - box.x1));
      const dy = Math.max(0, Math.max(box.y0 - nb.y1, nb.y0 - box.y1));
      const dist = Math.hypot(dx, dy) / Math.max(number.size, 8);
      let score = (size / maxSize) * 3 - Math.min(6, dist * 0.35) + Math.max(...g.map((l) => l.labelBonus));
      if (letters(text) >= 6) score += 0.5;
      if (text === text.toUpperCase()) score += 0.3;
      if (DRAWING_WORD_RE.test(text)) score += 0.8;
      return { text, lines: g.map((l) => l.text), box, size, score };
    })
    .sort((a, b) => b.score - a.score)
    .slice(0, 8);
};
