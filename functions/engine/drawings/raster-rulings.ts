/**
 * Rulings of a scanned sheet, found in its pixels: a scan draws its table grids as runs of dark pixels, not as
 * paths. A horizontal ruling is a run of dark pixels along a pixel row (small breaks in the toner bridged), and a
 * slightly skewed one is a staircase of such runs on neighbouring rows, each touching the next: they are chained
 * into one ruling. Vertical rulings likewise along pixel columns. Pure: RGBA pixels in, rulings in points out.
 */
import type { Box } from '../geometry.ts';
import type { Ruling } from '../io/rulings.ts';

/** Gray level under which a pixel is ink. */
const INK = 160;
/** A break of at most this many pixels inside a run (a worn or dotted scan line) is bridged. */
const MAX_BREAK = 2;
/** Runs on rows this many pixels apart or less, touching end to end or overlapping, are one ruling. */
const CHAIN_ROWS = 2;
const CHAIN_GAP = 4;

interface Run {
  /** Pixel row (or column). */
  at: number;
  from: number;
  to: number;
}

/**
 * Runs of ink of at least `minPixels` in a bitmap (1 = ink, `width` x `height`), along pixel rows (`rows`) or
 * along pixel columns.
 */
const runsOf = (ink: Uint8Array, width: number, height: number, rows: boolean, minPixels: number): Run[] => {
  const runs: Run[] = [];
  const lines = rows ? height : width;
  const along = rows ? width : height;
  const step = rows ? 1 : width;
  for (let line = 0; line < lines; line++) {
    let index = rows ? line * width : line;
    let start = -1;
    let lastInk = -1;
    for (let at = 0; at < along; at++, index += step) {
      if (ink[index] === 1) {
        if (start < 0) start = at;
        lastInk = at;
      } else if (start >= 0 && at - lastInk > MAX_BREAK) {
        if (lastInk - start + 1 >= minPixels) runs.push({ at: line, from: start, to: lastInk });
        start = -1;
      }
    }
    if (start >= 0 && lastInk - start + 1 >= minPixels) runs.push({ at: line, from: start, to: lastInk });
  }
  return runs;
};

/** Runs chained across neighbouring lines (a thick or skewed ruling), as [mean line, from, to]. */
const chained = (runs: readonly Run[]): Array<{ at: number; from: number; to: number }> => {
  const sorted = [...runs].sort((a, b) => a.at - b.at || a.from - b.from);
  type Chain = { sum: number; count: number; last: number; from: number; to: number; tail: Run[] };
  const chains: Chain[] = [];
  // Chains whose last run is within reach of the current line (the others are finished).
  let active: Chain[] = [];
  for (const run of sorted) {
    active = active.filter((candidate) => run.at - candidate.last <= CHAIN_ROWS);
    const chain = active.find(
      (candidate) =>
        run.at - candidate.last <= CHAIN_ROWS &&
        candidate.tail.some(
          (end) =>
            run.at - end.at <= CHAIN_ROWS && run.from <= end.to + CHAIN_GAP && run.to >= end.from - CHAIN_GAP,
        ),
    );
    if (chain) {
      chain.sum += run.at * (run.to - run.from + 1);
      chain.count += run.to - run.from + 1;
      chain.last = run.at;
      chain.from = Math.min(chain.from, run.from);
      chain.to = Math.max(chain.to, run.to);
      chain.tail = [...chain.tail.filter((end) => run.at - end.at <= CHAIN_ROWS), run];
    } else {
      const started: Chain = {
        sum: run.at * (run.to - run.from + 1),
        count: run.to - run.from + 1,
        last: run.at,
        from: run.from,
        to: run.to,
        tail: [run],
      };
      chains.push(started);
      active.push(started);
    }
  }
  return chains.map((chain) => ({ at: chain.sum / chain.count, from: chain.from, to: chain.to }));
};

/**
 * The rulings of at least `minLength` points in RGBA `pixels` (`width` x `height`) rendered at `scale` pixels per
 * point from `origin` (its top-left corner in points).
 */
export const rasterRulings = (
  pixels: Uint8Array | Uint8ClampedArray,
  width: number,
  height: number,
  scale: number,
  origin: Pick<Box, 'x0' | 'y0'>,
  minLength: number,
): Ruling[] => {
  const ink = new Uint8Array(width * height);
  for (let index = 0, at = 0; index < ink.length; index++, at += 4) {
    const gray =
      ((pixels[at] ?? 255) * 30 + (pixels[at + 1] ?? 255) * 59 + (pixels[at + 2] ?? 255) * 11) / 100;
    ink[index] = gray < INK ? 1 : 0;
  }
  const minPixels = Math.max(4, Math.round(minLength * scale));
  const horizontal = chained(runsOf(ink, width, height, true, minPixels));
  const vertical = chained(runsOf(ink, width, height, false, minPixels));
  const toPoints = (pixel: number, base: number): number => base + (pixel + 0.5) / scale;
  return [
    ...horizontal.map(
      (line): Ruling => ({
        axis: 'h',
        at: toPoints(line.at, origin.y0),
        from: toPoints(line.from, origin.x0),
        to: toPoints(line.to, origin.x0),
      }),
    ),
    ...vertical.map(
      (line): Ruling => ({
        axis: 'v',
        at: toPoints(line.at, origin.x0),
        from: toPoints(line.from, origin.y0),
        to: toPoints(line.to, origin.y0),
      }),
    ),
  ];
};

/** A line of pixels this dark over its length is a border (a letter's stroke is shorter than its cell). */
const BORDER_SHARE = 0.8;

/**
 * The inside of a cell's pixel box `box` in a render: from each side, every line of pixels within `reach` that is
 * dark over most of its length (the border, drawn or scanned, and its blur) is cut away, with the pixel after it.
 */
export const shaveBorders = (
  image: { data: Uint8ClampedArray; width: number },
  box: { x0: number; y0: number; x1: number; y1: number },
  reach: number,
): { x0: number; y0: number; x1: number; y1: number } => {
  const dark = (x: number, y: number): boolean => {
    const at = (y * image.width + x) * 4;
    return (image.data[at] ?? 255) + (image.data[at + 1] ?? 255) + (image.data[at + 2] ?? 255) < 3 * 128;
  };
  const columnDark = (x: number): boolean => {
    let count = 0;
    for (let y = box.y0; y < box.y1; y++) if (dark(x, y)) count++;
    return count >= BORDER_SHARE * (box.y1 - box.y0);
  };
  const rowDark = (y: number): boolean => {
    let count = 0;
    for (let x = box.x0; x < box.x1; x++) if (dark(x, y)) count++;
    return count >= BORDER_SHARE * (box.x1 - box.x0);
  };
  /** How many lines of pixels to cut from one side: past the last border line within reach, plus one. */
  const cut = (isLine: (offset: number) => boolean, size: number): number => {
    let last = -1;
    for (let offset = 0; offset < Math.min(reach, size / 3); offset++) if (isLine(offset)) last = offset;
    return last < 0 ? 0 : last + 2;
  };
  const width = box.x1 - box.x0;
  const height = box.y1 - box.y0;
  const left = cut((offset) => columnDark(box.x0 + offset), width);
  const right = cut((offset) => columnDark(box.x1 - 1 - offset), width);
  const top = cut((offset) => rowDark(box.y0 + offset), height);
  const bottom = cut((offset) => rowDark(box.y1 - 1 - offset), height);
  return { x0: box.x0 + left, y0: box.y0 + top, x1: box.x1 - right, y1: box.y1 - bottom };
};
