/**
 * Tables read from what is printed: a schedule, legend, index or log drawn as a ruled grid. The grid's row and
 * column lines are the page's rulings that cross each other; a cell whose border is not drawn is merged with its
 * neighbour (a header over several columns, a section-divider row, a cell spanning two header rows); words go to
 * the cell that holds their center. A grid row that holds several lines of text without row lines between them
 * (tables ruled by columns only) is split at its text lines, a line continuing the cell above (its key column
 * empty) joined to it.
 *
 * The title is a first row that spans the whole table, or the line printed just above its frame. The header is
 * told from the body by what schedules print: body rows repeat one cell pattern and carry the keys and values
 * (digits), header rows above them differ (cells merged across columns or rows) or hold only words.
 *
 * Pure: words and rulings in, tables out (no PDF library).
 */
import {
  type Box,
  boxOf,
  centerX,
  centerY,
  contains,
  height,
  type Line,
  median,
  type Word,
} from '../geometry.ts';
import type { Ruling } from '../io/rulings.ts';
import { buildLines, sortReadingOrder } from '../layout.ts';
import { unionFind } from '../union-find.ts';

export interface TableCell {
  /** Text as printed, wrapped lines joined by one space; `''` for an empty cell or one covered by a span. */
  text: string;
  /** The printed cell (a merged cell's whole box on every column it covers). */
  box: Box;
}

export interface TableRow {
  box: Box;
  /** One cell per column. */
  cells: TableCell[];
  /** A full-width row naming the group of rows under it (`FLOORING`, `CEILINGS`). */
  divider: boolean;
}

export interface TableRead {
  box: Box;
  title: string | null;
  titleBox: Box | null;
  columnCount: number;
  /** Header rows, one string per column; a header cell merged over several columns repeats in each. */
  header: string[][];
  rows: TableRow[];
}

/** Line ends within this many points meet. */
const MEET = 2.5;
/** Coordinates within this many points are one row or column line. */
const SNAP = 1.5;
/** More rulings than this on one page: a drawing's linework, not a table's grid (bounds the work). */
const MAX_RULINGS = 12_000;
/** A table's grid rows are at most this many of its text heights tall (a plan's rooms are taller). */
const MAX_ROW_HEIGHT_IN_TEXT = 6;
/** Most cells of one grid (a schedule of 200 rows by 25 columns): a plan's walls make far more. */
const MAX_CELLS = 5_000;
/** Least share of a grid's rows made of single cells (or of one cell over the whole row). */
const MIN_REGULAR_SHARE = 0.34;
/** A grid with at least this share of such rows (four rows, two columns or more) is a ruled table. */
const RULED_TABLE_SHARE = 0.8;
/** Least share of a ruled table's cells holding text as read (OCR may have read little of it). */
const MIN_FILLED_RULED = 0.08;
/** Frames taken away, level by level, to find tables drawn inside them. */
const MAX_FRAME_DEPTH = 2;
/** A frame's line runs at least this share of its grid's width (or height). */
const FRAME_LINE_SHARE = 0.6;
/** Least share of a table's body rows that fill two cells or more (when it has two columns or more). */
const MIN_RELATED_SHARE = 0.5;
/** Least share of a table's cells that hold text (a schedule's blanks are a minority; a plan's rooms are not). */
const MIN_FILLED_SHARE = 0.25;

/** Sorted distinct coordinates, values within SNAP of the previous one merged. */
const snapped = (values: readonly number[]): number[] => {
  const sorted = [...values].sort((a, b) => a - b);
  const out: number[] = [];
  for (const value of sorted) {
    const last = out[out.length - 1];
    if (last === undefined || value - last > SNAP) out.push(value);
  }
  return out;
};

/** Groups of rulings that cross or meet one another: each group is one drawn grid. */
const grids = (rulings: readonly Ruling[]): Ruling[][] => {
  const horizontals = rulings.filter((ruling) => ruling.axis === 'h');
  const verticals = rulings.filter((ruling) => ruling.axis === 'v').sort((a, b) => a.at - b.at);
  const all = [...horizontals, ...verticals];
  const sets = unionFind(all.length);
  const offset = horizontals.length;
  for (const [hIndex, h] of horizontals.entries()) {
    // Verticals whose x lies on this horizontal (binary search on the sorted x).
    let low = 0;
    let high = verticals.length;
    while (low < high) {
      const mid = (low + high) >> 1;
      if ((verticals[mid]?.at ?? 0) < h.from - MEET) low = mid + 1;
      else high = mid;
    }
    for (let index = low; index < verticals.length; index++) {
      const v = verticals[index];
      if (!v || v.at > h.to + MEET) break;
      if (h.at >= v.from - MEET && h.at <= v.to + MEET) sets.union(hIndex, offset + index);
    }
  }
  const groups = new Map<number, Ruling[]>();
  for (const [index, ruling] of all.entries()) {
    const root = sets.find(index);
    const group = groups.get(root) ?? [];
    group.push(ruling);
    groups.set(root, group);
  }
  return [...groups.values()];
};

/** A grid's rulings by axis and whole point of their fixed coordinate, to find the one under a cell edge. */
const rulingIndex = (rulings: readonly Ruling[]) => {
  const buckets = new Map<string, Ruling[]>();
  for (const ruling of rulings) {
    const key = `${ruling.axis}${Math.round(ruling.at)}`;
    const bucket = buckets.get(key) ?? [];
    bucket.push(ruling);
    buckets.set(key, bucket);
  }
  /** Whether a ruling of `axis` at `at` covers the span [from, to] (its ends within MEET). */
  return (axis: 'h' | 'v', at: number, from: number, to: number): boolean => {
    for (let key = Math.round(at) - 2; key <= Math.round(at) + 2; key++)
      for (const ruling of buckets.get(`${axis}${key}`) ?? [])
        if (Math.abs(ruling.at - at) <= SNAP + 0.5 && ruling.from <= from + MEET && ruling.to >= to - MEET)
          return true;
    return false;
  };
};

/** Index of the last of the sorted `lines` at or before `at`, within the cells (the row or column it is in). */
const lastAtOrBelow = (lines: readonly number[], at: number): number => {
  let low = 0;
  let high = lines.length - 2;
  while (low < high) {
    const mid = (low + high + 1) >> 1;
    if ((lines[mid] ?? 0) <= at) low = mid;
    else high = mid - 1;
  }
  return low;
};

interface Span {
  row: number;
  column: number;
  rows: number;
  columns: number;
  box: Box;
  words: Word[];
}

/** Dashes OCR reads from a CAD font's long hyphen (`G—2`, `R–G1`): printed as hyphens. */
const OCR_DASH = /[\u2010-\u2015\u2212]/g;

/**
 * A word OCR read from a cell's border rather than its lettering: bars, underscores and tildes alone, or mixed
 * with dashes (`|`, `_-_`, `~`): a scanned or skewed border left in the cell. A dash alone stays (a cell's `-`).
 */
const BORDER_WORD = /^[-|¦_~‐-―]*[|¦_~][-|¦_~‐-―]*$/;

/**
 * A cell's text from its words: lines in reading order joined by one space; OCR's long dashes as hyphens, and
 * what OCR read from the cell's borders left out.
 */
export const cellText = (cellWords: readonly Word[]): string => {
  const words = cellWords.filter((word) => word.source !== 'ocr' || !BORDER_WORD.test(word.text));
  if (!words.length) return '';
  const lines: Line[] = sortReadingOrder(buildLines(words, { gapFactor: 1.5 }));
  const text = lines
    .map((line) => line.text)
    .join(' ')
    .replace(/\s+/g, ' ')
    .trim();
  return words.some((word) => word.source === 'ocr') ? text.replace(OCR_DASH, '-') : text;
};

/**
 * The grid's cells as spans: atomic cells between row lines `ys` and column lines `xs`, merged where the border
 * between them is not drawn.
 */
const spansOf = (grid: readonly Ruling[], xs: readonly number[], ys: readonly number[]): Span[] => {
  const rowCount = ys.length - 1;
  const columnCount = xs.length - 1;
  const sets = unionFind(rowCount * columnCount);
  const at = (row: number, column: number): number => row * columnCount + column;
  const drawn = rulingIndex(grid);
  for (let row = 0; row < rowCount; row++) {
    const top = ys[row] ?? 0;
    const bottom = ys[row + 1] ?? 0;
    for (let column = 0; column < columnCount; column++) {
      const left = xs[column] ?? 0;
      const right = xs[column + 1] ?? 0;
      if (column + 1 < columnCount && !drawn('v', right, top, bottom))
        sets.union(at(row, column), at(row, column + 1));
      if (row + 1 < rowCount && !drawn('h', bottom, left, right))
        sets.union(at(row, column), at(row + 1, column));
    }
  }
  const byRoot = new Map<number, { r0: number; r1: number; c0: number; c1: number }>();
  for (let row = 0; row < rowCount; row++)
    for (let column = 0; column < columnCount; column++) {
      const root = sets.find(at(row, column));
      const span = byRoot.get(root);
      if (!span) byRoot.set(root, { r0: row, r1: row, c0: column, c1: column });
      else {
        span.r0 = Math.min(span.r0, row);
        span.r1 = Math.max(span.r1, row);
        span.c0 = Math.min(span.c0, column);
        span.c1 = Math.max(span.c1, column);
      }
    }
  return [...byRoot.values()].map((span) => ({
    row: span.r0,
    column: span.c0,
    rows: span.r1 - span.r0 + 1,
    columns: span.c1 - span.c0 + 1,
    box: { x0: xs[span.c0] ?? 0, y0: ys[span.r0] ?? 0, x1: xs[span.c1 + 1] ?? 0, y1: ys[span.r1 + 1] ?? 0 },
    words: [],
  }));
};

/** Text lines across a grid row: its words whose vertical extents overlap, top to bottom. */
const textBands = (inside: readonly Word[]): Array<{ y0: number; y1: number }> => {
  const bands: Array<{ y0: number; y1: number }> = [];
  for (const word of [...inside].sort((a, b) => a.y0 - b.y0)) {
    const band = bands.find(
      (b) => word.y0 < b.y1 - 0.3 * height(word) && word.y1 > b.y0 + 0.3 * height(word),
    );
    if (band) {
      band.y0 = Math.min(band.y0, word.y0);
      band.y1 = Math.max(band.y1, word.y1);
    } else bands.push({ y0: word.y0, y1: word.y1 });
  }
  return bands.sort((a, b) => a.y0 - b.y0);
};

/** Row lines added inside grid rows that hold several text lines with no line drawn between them. */
const textRowLines = (ys: readonly number[], xs: readonly number[], words: readonly Word[], text: number) => {
  const out: number[] = [];
  // A grid that draws a line under each row wraps text inside a tall row (a heading over three lines): only a
  // grid whose drawn rows are mostly tall (ruled by columns only) has rows that only its text separates.
  const drawnHeights = ys.slice(1).map((y, index) => y - (ys[index] ?? y));
  if (median(drawnHeights) < 2.6 * text) return out;
  const rows = ys.slice(1).map((bottom, row) => {
    const top = ys[row] ?? 0;
    const inside = words.filter((word) => centerY(word) > top && centerY(word) < bottom);
    return { top, bottom, inside, bands: textBands(inside) };
  });
  // ... and a grid whose drawn rows mostly hold one line of text draws a line under each row, whatever its
  // lettering's size against its rows' (small figures in roomy cells).
  if (median(rows.filter((row) => row.bands.length > 0).map((row) => row.bands.length)) <= 1) return out;
  for (const { top, bottom, inside, bands } of rows) {
    if (bottom - top < 2.6 * text) continue;
    const filledColumns = new Set(inside.map((word) => lastAtOrBelow(xs, centerX(word))));
    if (filledColumns.size < 2) continue;
    // A row begins at a line whose key (first) column holds text; a line without one continues the row above
    // (a wrapped cell), and a wrapped heading beside a one-line key stays one header row.
    const keyRight = xs[1] ?? 0;
    for (let index = 1; index < bands.length; index++) {
      const above = bands[index - 1];
      const below = bands[index];
      if (!above || !below || below.y0 <= above.y1) continue;
      const keyed = inside.some(
        (word) => centerX(word) < keyRight && word.y0 >= below.y0 - 0.5 && word.y1 <= below.y1 + 0.5,
      );
      if (keyed) out.push((above.y1 + below.y0) / 2);
    }
  }
  return out;
};

/** The line printed just above a frame that names it (`DOOR SCHEDULE`), within a few text heights. */
const titleAbove = (frame: Box, lines: readonly Line[]): Line | null => {
  let best: Line | null = null;
  for (const line of lines) {
    if (line.y1 > frame.y0 + 1 || frame.y0 - line.y1 > 3 * line.size) continue;
    if (line.x1 < frame.x0 || line.x0 > frame.x1) continue;
    if (!/[A-Za-z]{3}/.test(line.text)) continue;
    if (!best || line.y1 > best.y1) best = line;
  }
  return best;
};

/** The share of a row's cells with text that hold a digit. */
const digitShare = (texts: readonly string[]): number => {
  const filled = texts.filter(Boolean);
  return filled.length ? filled.filter((text) => /\d/.test(text)).length / filled.length : 0;
};

/** An inner column with no text in any row, no cell of text reaching over it, and text on both sides. */
const emptyColumn = (
  grid2d: ReadonlyArray<ReadonlyArray<Span | undefined>>,
  columnCount: number,
): number | null => {
  for (let column = 1; column + 1 < columnCount; column++) {
    const empty = grid2d.every((cells) => {
      const span = cells[column];
      return !span || span.words.length === 0;
    });
    if (!empty) continue;
    const textOn = (from: number, to: number): boolean =>
      grid2d.some((cells) => cells.slice(from, to).some((span) => span && span.words.length > 0));
    if (textOn(0, column) && textOn(column + 1, columnCount)) return column;
  }
  return null;
};

/** The rulings of a grid between two x positions (horizontal ones cut to them). */
const clipRulings = (grid: readonly Ruling[], from: number, to: number): Ruling[] =>
  grid.flatMap((ruling): Ruling[] => {
    if (ruling.axis === 'v') return ruling.at >= from - SNAP && ruling.at <= to + SNAP ? [ruling] : [];
    const clipped = { ...ruling, from: Math.max(ruling.from, from), to: Math.min(ruling.to, to) };
    return clipped.to - clipped.from > MEET ? [clipped] : [];
  });

/** Rulings a table may be drawn with: not the sheet's frame, not inside an excluded box (the title block). */
const usableRulings = (
  rulings: readonly Ruling[],
  page: { width: number; height: number },
  exclude: readonly Box[],
): Ruling[] =>
  rulings.filter(
    (ruling) =>
      // The sheet's frame (and a title strip along it) runs the whole sheet: no table's line does.
      ruling.to - ruling.from < 0.9 * (ruling.axis === 'h' ? page.width : page.height) &&
      !exclude.some((box) => contains(box, rulingBox(ruling), 2)),
  );

/** The words a table's cells are read from: lettering read in another direction is not a cell's. */
const acrossWords = (words: readonly Word[]): Word[] =>
  words.filter((word) => word.dir === 0 && word.text.trim());

/**
 * The lines of `removed` (a sheet's frame, a title strip's edges, a frame's long lines) that close `grid`: each
 * one two or more of the grid's perpendicular lines end on, cut to them. A table drawn against a title strip or
 * inside a frame shares its outer lines with that linework; taken away to part the table from the rest, they
 * are still the table's own borders where its columns (or rows) end. A line that only passes through the grid
 * (a plan's linework across a boxed note) is not.
 */
const bordersOf = (removed: readonly Ruling[], grid: readonly Ruling[]): Ruling[] =>
  removed.flatMap((line): Ruling[] => {
    const across = grid.filter(
      (other) =>
        other.axis !== line.axis &&
        other.at >= line.from - MEET &&
        other.at <= line.to + MEET &&
        (Math.abs(line.at - other.from) <= MEET || Math.abs(line.at - other.to) <= MEET),
    );
    if (across.length < 2) return [];
    const ats = across.map((other) => other.at);
    return [{ ...line, from: Math.min(...ats), to: Math.max(...ats) }];
  });

/**
 * A strip of panels (a title strip: the revision block, the consultants, the stamp, the title, side by side)
 * cut into its panels: a divider runs the grid's whole height (or width) and the rows on one side of it do not
 * go on across it (at most one line passes through: a table's own column lines are crossed by all its rows).
 * Each panel keeps its dividers as borders; a line passing through a divider is cut at it. No divider: [].
 */
const panels = (grid: readonly Ruling[], frame: Box): Ruling[][] => {
  for (const axis of ['v', 'h'] as const) {
    const [low, high] = axis === 'v' ? [frame.y0, frame.y1] : [frame.x0, frame.x1];
    const across = grid.filter((ruling) => ruling.axis !== axis);
    const dividers = snapped(
      grid
        .filter(
          (ruling) =>
            ruling.axis === axis &&
            ruling.from <= low + MEET &&
            ruling.to >= high - MEET &&
            across.filter((other) => other.from < ruling.at - MEET && other.to > ruling.at + MEET).length <=
              1,
        )
        .map((ruling) => ruling.at),
    );
    const [start, end] = axis === 'v' ? [frame.x0, frame.x1] : [frame.y0, frame.y1];
    const cuts = [start, ...dividers.filter((at) => at > start + MEET && at < end - MEET), end];
    if (cuts.length < 3) continue;
    const out: Ruling[][] = [];
    for (let index = 1; index < cuts.length; index++) {
      const from = cuts[index - 1] ?? start;
      const to = cuts[index] ?? end;
      const part = grid.flatMap((ruling): Ruling[] => {
        if (ruling.axis === axis) return ruling.at >= from - SNAP && ruling.at <= to + SNAP ? [ruling] : [];
        const clipped = { ...ruling, from: Math.max(ruling.from, from), to: Math.min(ruling.to, to) };
        return clipped.to - clipped.from > MEET ? [clipped] : [];
      });
      if (part.length >= 4) out.push(part);
    }
    return out;
  }
  return [];
};

/**
 * Offers each connected grid of a page's usable rulings to `take`, closed by the lines taken away around it
 * (bordersOf). A grid `take` refuses (no table as a whole) may be a frame (a detail's border, a view's box)
 * joining tables drawn inside it to other linework: its longest lines taken away, what stays connected is
 * offered again, down to MAX_FRAME_DEPTH.
 */
const eachGrid = (
  rulings: readonly Ruling[],
  page: { width: number; height: number },
  exclude: readonly Box[],
  take: (grid: readonly Ruling[], frame: Box) => boolean,
): void => {
  const usable = usableRulings(rulings, page, exclude);
  if (usable.length > MAX_RULINGS) return;
  const kept = new Set(usable);
  const sheetLines = rulings.filter(
    (ruling) => !kept.has(ruling) && !exclude.some((box) => contains(box, rulingBox(ruling), 2)),
  );
  const visit = (rulingsOfGrid: readonly Ruling[], depth: number, removed: readonly Ruling[]): void => {
    for (const grid of grids(rulingsOfGrid)) {
      const own = [...grid, ...bordersOf(removed, grid)];
      const frame = boxOf(grid.map(rulingBox));
      if (take(own, boxOf(own.map(rulingBox))) || depth >= MAX_FRAME_DEPTH || grid.length < 8) continue;
      const parts = panels(grid, frame);
      if (parts.length > 1) {
        for (const part of parts) visit(part, depth + 1, removed);
        continue;
      }
      const long = (ruling: Ruling): boolean =>
        ruling.to - ruling.from >=
        FRAME_LINE_SHARE * (ruling.axis === 'h' ? frame.x1 - frame.x0 : frame.y1 - frame.y0);
      visit(
        grid.filter((ruling) => !long(ruling)),
        depth + 1,
        [...removed, ...grid.filter(long)],
      );
    }
  };
  visit(usable, 0, sheetLines);
};

/**
 * Reads the ruled tables of a page. `rulings` should include short ones (cell borders); `exclude` are boxes
 * whose grids are not tables of content (the title block).
 */
export const readTables = (
  words: readonly Word[],
  rulings: readonly Ruling[],
  page: { width: number; height: number },
  exclude: readonly Box[] = [],
): TableRead[] => {
  const horizontalWords = acrossWords(words);
  const lines = buildLines(horizontalWords, { gapFactor: 1.5 });
  const tables: TableRead[] = [];
  eachGrid(rulings, page, exclude, (grid) => {
    const found = readGrid(grid, horizontalWords, lines);
    tables.push(...found);
    return found.length > 0;
  });
  // A grid inside another table's frame is that table's (a nested legend cell), not a table of its own.
  return tables.filter(
    (table) =>
      !tables.some((other) => other !== table && contains(other.box, table.box, 1) && other.rows.length > 0),
  );
};

/** A ruled grid whose lettering is not text (drawn as outlines) has rows this tall at most (points). */
const MAX_BLANK_ROW = 48;
/** ... and at least this tall: lettering of 3/32" and a margin. */
const MIN_BLANK_ROW = 8;
/** ... and covers at most this share of the sheet (a sheet's whole layout grid is not a table). */
const MAX_BLANK_SHARE = 0.25;

/**
 * The frames of ruled grids that hold no text to read: four rows or more (of one column or more), most rows of
 * single cells, rows a line of lettering tall, and (almost) no word inside. On a sheet read from its text layer
 * such a grid is a table whose lettering was drawn as outlines (a CAD font exported as strokes): OCR reads it.
 */
export const unreadGrids = (
  words: readonly Word[],
  rulings: readonly Ruling[],
  page: { width: number; height: number },
  exclude: readonly Box[] = [],
): Box[] => {
  const horizontalWords = acrossWords(words);
  const frames: Box[] = [];
  eachGrid(rulings, page, exclude, (grid, frame) => {
    if (!isBlankTableGrid(grid, frame, horizontalWords, page)) return false;
    frames.push(frame);
    return true;
  });
  return frames;
};

const isBlankTableGrid = (
  grid: readonly Ruling[],
  frame: Box,
  words: readonly Word[],
  page: { width: number; height: number },
): boolean => {
  const ys = snapped(grid.filter((ruling) => ruling.axis === 'h').map((ruling) => ruling.at));
  const xs = snapped(grid.filter((ruling) => ruling.axis === 'v').map((ruling) => ruling.at));
  const rowCount = ys.length - 1;
  const columnCount = xs.length - 1;
  if (rowCount < 4 || rowCount * columnCount > MAX_CELLS) return false;
  const width = frame.x1 - frame.x0;
  const height = frame.y1 - frame.y0;
  // Two columns of words take an inch at least; a smaller grid is a symbol's linework.
  if (width < 72 || height < 36 || width * height > MAX_BLANK_SHARE * page.width * page.height) return false;
  const rowHeight = median(ys.slice(1).map((y, index) => y - (ys[index] ?? y)));
  if (rowHeight < MIN_BLANK_ROW || rowHeight > MAX_BLANK_ROW) return false;
  const spans = spansOf(grid, xs, ys);
  if (grid2dRegularRows(spans, rowCount, columnCount) < RULED_TABLE_SHARE * rowCount) return false;
  // Few of its cells hold a word (a title read over a body that was not).
  const holding = new Set<Span>();
  for (const word of words) {
    const x = centerX(word);
    const y = centerY(word);
    const span = spans.find(
      (cell) => x > cell.box.x0 && x < cell.box.x1 && y > cell.box.y0 && y < cell.box.y1,
    );
    if (span) holding.add(span);
  }
  return holding.size < MIN_FILLED_SHARE * spans.length;
};

/**
 * Rows whose cells are all single cells, or that are one cell over every column. Cells no text ever starts in (a
 * sliver between a frame and a leader, an unused margin column) do not count.
 */
const grid2dRegularRows = (spans: readonly Span[], rowCount: number, columnCount: number): number => {
  const spanned = spans.filter((span) => span.words.length > 0 || span.rows === 1);
  let regular = 0;
  for (let row = 0; row < rowCount; row++) {
    const cells = spanned.filter((span) => row >= span.row && row < span.row + span.rows);
    const whole = cells.length === 1 && cells[0]?.rows === 1 && cells[0]?.columns === columnCount;
    if (whole || cells.every((span) => span.rows === 1 && span.columns === 1)) regular++;
  }
  return regular;
};

const rulingBox = (ruling: Ruling): Box =>
  ruling.axis === 'h'
    ? { x0: ruling.from, y0: ruling.at, x1: ruling.to, y1: ruling.at }
    : { x0: ruling.at, y0: ruling.from, x1: ruling.at, y1: ruling.to };

const readGrid = (
  grid: readonly Ruling[],
  words: readonly Word[],
  lines: readonly Line[],
  depth = 0,
): TableRead[] => {
  const horizontals = grid.filter((ruling) => ruling.axis === 'h');
  const verticals = grid.filter((ruling) => ruling.axis === 'v');
  if (horizontals.length < 2 || verticals.length < 2) return [];
  let ys = snapped(horizontals.map((ruling) => ruling.at));
  let xs = snapped(verticals.map((ruling) => ruling.at));
  // A box (two lines each way) is a frame, not a table; a plan's walls make too many cells to be one.
  if ((xs.length < 3 && ys.length < 3) || xs.length * ys.length > MAX_CELLS) return [];
  const frame = boxOf(grid.map(rulingBox));
  if (frame.x1 - frame.x0 < 40 || frame.y1 - frame.y0 < 20) return [];
  const inside = words.filter((word) =>
    contains(frame, { ...word, x0: centerX(word), x1: centerX(word) }, 0.5),
  );
  if (inside.length < 4) return [];
  const text = median(inside.map((word) => height(word)));
  // A frame drawn as two lines (a thick border, a shadow) leaves a sliver column at an edge that holds no text.
  const sliver = (from: number, to: number): boolean =>
    to - from < 2 * text && !inside.some((word) => centerX(word) > from && centerX(word) < to);
  if (xs.length > 3 && sliver(xs[0] ?? 0, xs[1] ?? 0)) xs = xs.slice(1);
  if (xs.length > 3 && sliver(xs[xs.length - 2] ?? 0, xs[xs.length - 1] ?? 0)) xs = xs.slice(0, -1);
  // Row lines only the text draws (rows ruled by columns only).
  const added = textRowLines(ys, xs, inside, text);
  const virtual: Ruling[] = added.map((at) => ({ axis: 'h', at, from: frame.x0, to: frame.x1 }));
  ys = snapped([...ys, ...added]);
  if (ys.length < 3 || xs.length * ys.length > MAX_CELLS) return [];
  const rowHeights = ys.slice(1).map((y, index) => y - (ys[index] ?? y));
  if (median(rowHeights) > MAX_ROW_HEIGHT_IN_TEXT * text) return [];
  const spans = spansOf([...grid, ...virtual], xs, ys);
  const columnCount = xs.length - 1;
  const rowCount = ys.length - 1;
  const grid2d: Array<Array<Span | undefined>> = Array.from({ length: rowCount }, () =>
    new Array<Span | undefined>(columnCount).fill(undefined),
  );
  for (const span of spans)
    for (let row = span.row; row < span.row + span.rows; row++)
      for (let column = span.column; column < span.column + span.columns; column++) {
        const cells = grid2d[row];
        if (cells) cells[column] = span;
      }
  for (const word of inside)
    grid2d[lastAtOrBelow(ys, centerY(word))]?.[lastAtOrBelow(xs, centerX(word))]?.words.push(word);
  const filled = spans.filter((span) => span.words.length > 0);
  if (filled.length < 4) return [];
  // Two tables printed side by side on shared row lines (an index in two blocks) with an empty column between
  // them are two tables.
  const gap = emptyColumn(grid2d, columnCount);
  if (gap !== null && depth < 3) {
    const left = xs[gap] ?? 0;
    const right = xs[gap + 1] ?? 0;
    return [
      ...readGrid(clipRulings(grid, Number.NEGATIVE_INFINITY, left), words, lines, depth + 1),
      ...readGrid(clipRulings(grid, right, Number.POSITIVE_INFINITY), words, lines, depth + 1),
    ];
  }
  // Most of a table's rows are rows of single cells (or one cell over the whole row: a title, a group's
  // name); merged cells head its columns. Linework joined into one grid merges cells in most of its rows.
  const regular = grid2dRegularRows(spans, rowCount, columnCount);
  if (regular < MIN_REGULAR_SHARE * rowCount) return [];
  // A grid this regular is a table even when OCR read little of it (its columns are read again alone).
  const ruledTable = regular >= RULED_TABLE_SHARE * rowCount && rowCount >= 4 && columnCount >= 2;
  if (filled.length < (ruledTable ? MIN_FILLED_RULED : MIN_FILLED_SHARE) * spans.length) return [];
  // The title: a first row that is one cell over every column, else the line just above the frame.
  const first = grid2d[0]?.[0];
  const titleRow = first && first.columns === columnCount && first.rows === 1 && first.words.length > 0;
  let title: string | null = null;
  let titleBox: Box | null = null;
  // Each cell's text, joined once.
  const textOf = new Map(spans.map((span) => [span, cellText(span.words)]));
  if (titleRow && first) {
    title = textOf.get(first) ?? '';
    titleBox = boxOf(first.words);
  } else {
    const above = titleAbove(frame, lines);
    if (above) {
      title = above.text.trim();
      titleBox = above;
    }
  }
  const bodyStart = titleRow ? 1 : 0;
  // Each row's cell pattern: where spans begin and whether any span reaches into the next row.
  const pattern = (row: number): string =>
    (grid2d[row] ?? [])
      .map((span, column) =>
        !span ? '.' : span.row !== row ? 'v' : span.column !== column ? '-' : span.rows > 1 ? 'V' : '|',
      )
      .join('');
  // Each row's texts, a merged cell's in its first column only.
  const rowTexts = Array.from({ length: rowCount }, (_, row) =>
    (grid2d[row] ?? []).map((span, column) =>
      span && span.row === row && span.column === column ? (textOf.get(span) ?? '') : '',
    ),
  );
  const counts = new Map<string, number>();
  for (let row = bodyStart; row < rowCount; row++) {
    if (rowTexts[row]?.every((cell) => !cell)) continue;
    const key = pattern(row);
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  const bodyPattern = [...counts.entries()].sort((a, b) => b[1] - a[1])[0]?.[0] ?? '';
  let headerEnd = bodyStart;
  for (let row = bodyStart; row < rowCount; row++) {
    const texts = rowTexts[row] ?? [];
    if (texts.every((cell) => !cell) || pattern(row) !== bodyPattern) {
      headerEnd = row + 1;
      continue;
    }
    // A row in the body's pattern is the column headings when far fewer of its cells hold digits than the
    // rows under it (`SHOULDER L/3 (FT)` over `20 | 80 | 40`, `CODE | MATERIAL` over `CPT-1 | ...`).
    const next = Array.from({ length: Math.min(3, rowCount - row - 1) }, (_, index) =>
      digitShare(rowTexts[row + 1 + index] ?? []),
    );
    const below = next.length ? next.reduce((sum, share) => sum + share, 0) / next.length : 0;
    if (below > 0 && digitShare(texts) <= 0.5 * below) headerEnd = row + 1;
    break;
  }
  if (headerEnd - bodyStart > 4 || headerEnd >= rowCount) headerEnd = Math.min(bodyStart + 1, rowCount);
  // A table whose rows fill upward (a revision block: blank rows wait at its top for the next issues) prints its
  // headings in its last row: taken as the header when nothing above the first record was, by the same test of
  // digits against the rows next to it.
  let footer: number | null = null;
  const holdsText = (texts: readonly string[]): boolean => texts.some((cell) => cell);
  if (!rowTexts.slice(bodyStart, headerEnd).some(holdsText)) {
    const last = rowCount - 1;
    const above = rowTexts.slice(headerEnd, last).filter(holdsText).slice(-3).map(digitShare);
    const aboveShare = above.length ? above.reduce((sum, share) => sum + share, 0) / above.length : 0;
    if (
      last > headerEnd &&
      pattern(last) === bodyPattern &&
      aboveShare > 0 &&
      digitShare(rowTexts[last] ?? []) <= 0.5 * aboveShare
    ) {
      footer = last;
      headerEnd = bodyStart;
    }
  }
  // A heading merged over columns repeats in each; one merged over rows is given in its first row only.
  const headingsOf = (row: number): string[] =>
    (grid2d[row] ?? []).map((span) => (span && span.row === row ? (textOf.get(span) ?? '') : ''));
  const header: string[][] = [];
  if (footer !== null) header.push(headingsOf(footer));
  for (let row = bodyStart; row < headerEnd; row++) header.push(headingsOf(row));
  const rows: TableRow[] = [];
  for (let row = headerEnd; row < (footer ?? rowCount); row++) {
    const spansOfRow = grid2d[row] ?? [];
    const cells: TableCell[] = spansOfRow.map((span, column) => ({
      text: rowTexts[row]?.[column] ?? '',
      box: span?.box ?? {
        x0: xs[column] ?? 0,
        y0: ys[row] ?? 0,
        x1: xs[column + 1] ?? 0,
        y1: ys[row + 1] ?? 0,
      },
    }));
    // An empty row is kept (OCR may fill it: table-ocr.ts); withoutEmptyRows drops it once nothing will.
    const whole = spansOfRow[0];
    rows.push({
      box: { x0: frame.x0, y0: ys[row] ?? 0, x1: frame.x1, y1: ys[row + 1] ?? 0 },
      cells,
      divider:
        columnCount > 1 &&
        whole !== undefined &&
        whole.row === row &&
        whole.rows === 1 &&
        whole.columns === columnCount,
    });
  }
  if (!rows.some((row) => row.cells.some((cell) => cell.text))) return [];
  // A table's rows relate values across its columns: most rows fill two cells or more. Linework that happens
  // to box a few labels (a plan's equipment, a detail's callouts) fills one cell a row.
  const records = rows.filter((row) => !row.divider && row.cells.some((cell) => cell.text));
  const related = records.filter((row) => row.cells.filter((cell) => cell.text).length >= 2).length;
  if (columnCount >= 2 && !ruledTable && related < MIN_RELATED_SHARE * records.length) return [];
  // A divider names the group of records under it: a grid of more full-width lines than records is a frame
  // around paragraphs (a sheet's notes boxed line by line), not a table.
  if (records.length < rows.filter((row) => row.divider).length) return [];
  return [{ box: frame, title, titleBox, columnCount, header, rows }];
};

/**
 * A table's column names: its header rows' texts joined per column, a heading merged over several columns (and
 * so repeated in each) named once; `''` for a column without a heading.
 */
export const tableColumnNames = (table: {
  header: readonly (readonly string[])[];
  columnCount: number;
}): string[] =>
  Array.from({ length: table.columnCount }, (_, column) => {
    const parts: string[] = [];
    for (const row of table.header) {
      const text = row[column]?.trim() ?? '';
      if (text && parts.at(-1) !== text) parts.push(text);
    }
    return parts.join(' ');
  });

/** The table without its rows empty in every cell (ruled spacer rows, or rows OCR could not read). */
export const withoutEmptyRows = (table: TableRead): TableRead => ({
  ...table,
  rows: table.rows.filter((row) => row.cells.some((cell) => cell.text)),
});
