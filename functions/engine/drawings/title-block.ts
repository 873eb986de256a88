/**
 * The title block of a drawing sheet: the ruled box or text strip along the right or bottom edge, most often in
 * the bottom-right corner, that holds the sheet number. Found from the drawing's ruling lines first, then from
 * an empty band separating a text strip from the drawing, else from the text clustered around the number.
 */
import {
  type Box,
  boxOf,
  centerX,
  centerY,
  clampBox,
  expand,
  height,
  type Line,
  type Word,
  width,
} from '../geometry.ts';
import type { Ruling } from '../io/rulings.ts';

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
  const right = stripFromEdge(words, anchor, pageWidth, pageHeight, RIGHT_EDGE);
  const bottom = stripFromEdge(words, anchor, pageWidth, pageHeight, BOTTOM_EDGE);
  let strip: Box | null = null;
  if (right && bottom) {
    // A bottom band whose words sit mostly inside the right strip's columns is just the foot of that
    // strip (with a few view titles at the left): the strip is the title block. A real bottom title band
    // carries its fields along its whole length.
    const bandWords = words.filter((word) => word.y0 >= bottom.y0);
    const inStrip = bandWords.filter((word) => word.x0 >= right.x0 - 2).length;
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
    const list = rulings.filter((ruling) => ruling.axis === axis).sort((a, b) => a.at - b.at);
    let group: Ruling[] = [];
    const flush = (): void => {
      if (!group.length) return;
      const from = Math.min(...group.map((ruling) => ruling.from));
      const to = Math.max(...group.map((ruling) => ruling.to));
      const covered = group.reduce((sum, ruling) => sum + (ruling.to - ruling.from), 0);
      const at =
        group.reduce((sum, ruling) => sum + ruling.at * (ruling.to - ruling.from), 0) /
        Math.max(1e-6, covered);
      out.push(
        covered >= 0.4 * (to - from)
          ? { axis, at, from, to }
          : group.reduce((longest, ruling) =>
              ruling.to - ruling.from > longest.to - longest.from ? ruling : longest,
            ),
      );
      group = [];
    };
    for (const ruling of list) {
      const groupStart = group[0];
      if (groupStart && ruling.at - groupStart.at > 3) flush();
      group.push(ruling);
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
      .filter(
        (ruling) =>
          ruling.axis === 'v' && ruling.at > anchor.x1 && ruling.to - ruling.from >= pageHeight * 0.5,
      )
      .map((ruling) => ruling.at),
  ),
  bottom: Math.min(
    pageHeight,
    ...rulings
      .filter(
        (ruling) =>
          ruling.axis === 'h' && ruling.at > anchor.y1 && ruling.to - ruling.from >= pageWidth * 0.4,
      )
      .map((ruling) => ruling.at),
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
  // A line past a share of the page and before the number, starting before the number on the other axis
  // and running on to the sheet's edge.
  const runsToEdge = (
    ruling: Ruling,
    pastPage: number,
    numberStart: number,
    acrossStart: number,
    edge: number,
  ) => ruling.at > pastPage && ruling.at < numberStart && ruling.from < acrossStart && ruling.to >= edge - 5;
  const verticals = rulings.filter(
    (ruling) =>
      ruling.axis === 'v' && runsToEdge(ruling, pageWidth * 0.4, anchor.x0, anchor.y0, edges.bottom),
  );
  const horizontals = rulings.filter(
    (ruling) =>
      ruling.axis === 'h' && runsToEdge(ruling, pageHeight * 0.3, anchor.y0, anchor.x0, edges.right),
  );
  let best: Box | null = null;
  for (const vertical of verticals) {
    for (const horizontal of horizontals) {
      if (Math.abs(horizontal.at - vertical.from) > 3 || Math.abs(horizontal.from - vertical.at) > 3)
        continue;
      const box = { x0: vertical.at, y0: horizontal.at, x1: edges.right, y1: edges.bottom };
      if (width(box) * height(box) > pageWidth * pageHeight * 0.33) continue;
      if (!best || width(box) * height(box) > width(best) * height(best)) best = box;
    }
  }
  return best;
};

/**
 * The full-height title strip whose bottom cell a corner block is: its left line runs on from the corner
 * block's left edge up over most of the sheet's height (a strip of cells: logo, revisions, title, number).
 */
const stripAbove = (corner: Box, rulings: readonly Ruling[], pageHeight: number): Box | null => {
  const left = rulings.find(
    (ruling) =>
      ruling.axis === 'v' &&
      Math.abs(ruling.at - corner.x0) <= 3 &&
      ruling.to >= corner.y1 - 5 &&
      ruling.from < corner.y0 - 10 &&
      ruling.to - ruling.from >= pageHeight * STRIP_MIN_HEIGHT,
  );
  return left ? { ...corner, y0: left.from } : null;
};

/** A title strip runs over at least this fraction of the sheet's height. */
const STRIP_MIN_HEIGHT = 0.8;

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
  // Title-block frame lines are often drawn cell by cell: join collinear pieces (gaps allowed) first.
  rulings = joinCollinear(rulings);
  if (corner) return stripAbove(corner, rulings, pageHeight) ?? corner;
  // A frame line: long enough, in the page's last 40 % and before the number on its axis.
  const isFrameLine = (ruling: Ruling, minLength: number, pageSide: number, numberStart: number) =>
    ruling.to - ruling.from >= minLength && ruling.at > pageSide * 0.6 && ruling.at < numberStart - 2;
  const verticals = rulings.filter(
    (ruling) =>
      ruling.axis === 'v' &&
      isFrameLine(ruling, pageHeight * 0.5, pageWidth, anchor.x0) &&
      ruling.from < anchor.y0 &&
      ruling.to > anchor.y0,
  );
  const horizontals = rulings.filter(
    (ruling) =>
      ruling.axis === 'h' &&
      isFrameLine(ruling, pageWidth * 0.4, pageHeight, anchor.y0) &&
      ruling.from < anchor.x0 &&
      ruling.to > anchor.x1,
  );
  const { right: borderRight, bottom: borderBottom } = sheetEdges(rulings, anchor, pageWidth, pageHeight);
  const vertical = verticals.sort((a, b) => b.at - a.at)[0];
  const horizontal = horizontals.sort((a, b) => b.at - a.at)[0];
  const right =
    vertical && borderRight - vertical.at <= pageWidth * 0.3
      ? { x0: vertical.at, y0: vertical.from, x1: borderRight, y1: vertical.to }
      : null;
  const bottom =
    horizontal && borderBottom - horizontal.at <= pageHeight * 0.3
      ? { x0: horizontal.from, y0: horizontal.at, x1: horizontal.to, y1: borderBottom }
      : null;
  if (right && bottom) {
    // Both a right strip and a bottom band: a real bottom title band carries fields along its length; a
    // band holding only a few words left of the strip (grid labels, a view title) is not the title block.
    const outside = words.filter(
      (word) => word.y0 >= bottom.y0 - 1 && word.x1 < right.x0 && word.x0 >= bottom.x0 - 1,
    );
    const letters = outside.reduce((count, word) => count + word.text.replace(/[^A-Za-z]/g, '').length, 0);
    return letters >= 40 ? bottom : right;
  }
  return right ?? bottom;
};

/** Width of the empty band (points) that separates a title strip from the drawing. */
const EMPTY_BAND = 12;

/**
 * How a strip along one page edge is looked for: the right edge (a vertical strip, scanned along x) or the
 * bottom edge (a horizontal band, scanned along y).
 */
interface StripEdge {
  /** Start and end of a box along the scanned axis. */
  start: (box: Box) => number;
  end: (box: Box) => number;
  /** Extent of a box across the scanned axis. */
  across: (box: Box) => number;
  /** The scan stops at this fraction of the page along the axis. */
  scanLimit: number;
  /** The strip's words must span at least this fraction of the page across the axis. */
  minAcross: number;
}

const RIGHT_EDGE: StripEdge = {
  start: (box) => box.x0,
  end: (box) => box.x1,
  across: height,
  scanLimit: 0.55,
  minAcross: 0.35,
};
const BOTTOM_EDGE: StripEdge = {
  start: (box) => box.y0,
  end: (box) => box.y1,
  across: width,
  scanLimit: 0.6,
  minAcross: 0.45,
};

/**
 * A strip from the page edge back to the anchor, separated from the drawing by an empty band (no text).
 * Words spanning half the page across the axis (frame text) do not fill the band.
 */
const stripFromEdge = (
  words: readonly Word[],
  anchor: Box,
  pageWidth: number,
  pageHeight: number,
  edge: StripEdge,
): Box | null => {
  const alongRight = edge === RIGHT_EDGE;
  const pageAlong = alongRight ? pageWidth : pageHeight;
  const pageAcross = alongRight ? pageHeight : pageWidth;
  // Occupancy in 2-pt steps along the scanned axis.
  const occupied = new Uint8Array(Math.ceil(pageAlong / 2) + 1);
  for (const word of words) {
    if (edge.across(word) > pageAcross * 0.5) continue;
    const last = Math.ceil(edge.end(word) / 2);
    for (let step = Math.floor(edge.start(word) / 2); step <= last && step < occupied.length; step++)
      occupied[step] = 1;
  }
  let gapRun = 0;
  for (let step = Math.floor(edge.start(anchor) / 2) - 1; step > (pageAlong * edge.scanLimit) / 2; step--) {
    if (occupied[step]) {
      gapRun = 0;
      continue;
    }
    gapRun++;
    if (gapRun * 2 < EMPTY_BAND) continue;
    const stripStart = (step + gapRun) * 2 - 2;
    const inside = words.filter((word) => edge.start(word) >= stripStart);
    if (inside.length < 3) return null;
    const wordsBox = boxOf(inside);
    if (edge.across(wordsBox) < pageAcross * edge.minAcross) return null;
    const padded = clampBox(expand(wordsBox, 4), pageWidth, pageHeight);
    return alongRight ? { ...padded, x0: stripStart } : { ...padded, y0: stripStart };
  }
  return null;
};

/** Words linked to the anchor by small gaps (single-link clustering), limited to the bottom-right area. */
const clusterAround = (words: readonly Word[], anchor: Box, pageWidth: number, pageHeight: number): Box => {
  const pool = words.filter((word) => centerX(word) > pageWidth * 0.45 && centerY(word) > pageHeight * 0.35);
  const inCluster = new Set<Word>();
  let frontier: Box[] = [anchor];
  let box = { ...anchor };
  for (let round = 0; round < 40 && frontier.length; round++) {
    const next: Box[] = [];
    for (const word of pool) {
      if (inCluster.has(word)) continue;
      const reach = Math.max(18, 2.5 * word.size);
      for (const reached of frontier) {
        const dx = Math.max(0, Math.max(reached.x0 - word.x1, word.x0 - reached.x1));
        const dy = Math.max(0, Math.max(reached.y0 - word.y1, word.y0 - reached.y1));
        if (dx <= reach && dy <= reach) {
          inCluster.add(word);
          next.push(word);
          break;
        }
      }
    }
    frontier = next;
    if (next.length) box = boxOf([box, ...next]);
  }
  return box;
};

/**
 * The fields of a title block, by kind: a title block prints several of them in a strip along the right or
 * bottom edge (sheet number, sheet title, scale, date, drawn and checked by, project number, revisions, issue).
 */
const TITLE_BLOCK_FIELDS: ReadonlyArray<[string, RegExp]> = [
  ['number', /^(?:SHEET|SHT\.?|DRAWING|DWG\.?|DRG\.?)\s*(?:NO\.?|NUMBER|#)?\s*:?$/i],
  ['title', /^(?:SHEET|DRAWING|DWG\.?)\s+(?:TITLE|NAME)\b/i],
  ['scale', /^(?:DRAWING\s+)?SCALE\b/i],
  ['date', /^(?:PLOT\s+|ISSUE\s+)?DATE\b/i],
  ['drawn', /^DRAWN(?:\s+BY)?\b/i],
  ['checked', /^CHECKED(?:\s+BY)?\b/i],
  ['designed', /^DESIGNED(?:\s+BY)?\b/i],
  ['project', /^(?:PROJECT|JOB)\s*(?:NO\.?|NUMBER|#)/i],
  ['revisions', /^REVISIONS?\s*:?$/i],
  ['issue', /^ISSUED?\s+FOR\b/i],
];
/** A strip holding this many kinds of field is a title block. */
const TITLE_BLOCK_FIELD_KINDS = 4;
/** How far in from the right or bottom edge a title strip reaches, as a share of the page. */
const STRIP_REACH = 0.3;

/**
 * Whether a page prints a title block: four kinds of title-block field or more (see TITLE_BLOCK_FIELDS), in a
 * strip along the right or the bottom edge of the displayed page. The mark of a drawing sheet, whatever paper
 * it was printed on (a set reduced to letter size keeps its title block).
 */
export const printsTitleBlock = (lines: readonly Line[], pageWidth: number, pageHeight: number): boolean => {
  const kindsIn = (inStrip: (line: Line) => boolean): number =>
    new Set(
      lines
        .filter(inStrip)
        .flatMap((line) =>
          TITLE_BLOCK_FIELDS.filter(([, pattern]) => pattern.test(line.text.trim())).map(([kind]) => kind),
        ),
    ).size;
  return (
    kindsIn((line) => centerX(line) >= pageWidth * (1 - STRIP_REACH)) >= TITLE_BLOCK_FIELD_KINDS ||
    kindsIn((line) => centerY(line) >= pageHeight * (1 - STRIP_REACH)) >= TITLE_BLOCK_FIELD_KINDS
  );
};
