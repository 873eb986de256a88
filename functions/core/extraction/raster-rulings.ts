/**
 * Rulings of a scanned sheet, found in its pixels: a scan draws its table grids as runs of dark pixels, not as
 * paths. A horizontal ruling is a run of dark pixels along a pixel row (small breaks in the toner bridged), and a
 * slightly skewed one is a staircase of such runs on neighbouring rows, each touching the next: they are chained
 * into one ruling. Vertical rulings likewise along pixel columns. Pure: RGBA pixels in, rulings in points out.
 */
import type { Box } from './geometry.ts';
import type { Ruling } from './rulings.ts';

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
