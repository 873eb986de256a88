/**
 * Words → lines, for each reading direction, and lines → text in reading order.
 *
 * Lines are built in a "reading frame" where the text runs along +u and successive lines go along +v, so
 * rotated text (90/270 degrees on sheets) is grouped with the same code as horizontal text.
 */
import { type Box, boxOf, type Line, type TextDirection, type Word } from './geometry.ts';

const toFrame = (dir: TextDirection, box: Box): Box => {
  switch (dir) {
    case 0:
      return box;
    case 90:
      return { x0: box.y0, x1: box.y1, y0: -box.x1, y1: -box.x0 };
    case 270:
      return { x0: -box.y1, x1: -box.y0, y0: box.x0, y1: box.x1 };
    case 180:
      return { x0: -box.x1, x1: -box.x0, y0: -box.y1, y1: -box.y0 };
  }
};

export interface LineOptions {
  /** Split a line where the gap between words exceeds this many font sizes. */
  gapFactor: number;
}

interface FrameWord {
  word: Word;
  frame: Box;
  vc: number;
}

interface OpenLine {
  items: FrameWord[];
  vc: number;
  u1: number;
  size: number;
}

/** Groups words into lines (same baseline, small gaps), in reading order of each direction. */
export const buildLines = (words: readonly Word[], options: LineOptions): Line[] => {
  const byDir = new Map<TextDirection, FrameWord[]>();
  for (const word of words) {
    const frame = toFrame(word.dir, word);
    const list = byDir.get(word.dir) ?? [];
    list.push({ word, frame, vc: (frame.y0 + frame.y1) / 2 });
    byDir.set(word.dir, list);
  }
  const lines: Line[] = [];
  for (const [dir, list] of byDir) {
    list.sort((a, b) => a.frame.x0 - b.frame.x0);
    const buckets = new Map<number, OpenLine[]>();
    const all: OpenLine[] = [];
    for (const fw of list) {
      const size = fw.word.size;
      const key = Math.round(fw.vc / 2);
      let best: OpenLine | undefined;
      let bestScore = Number.POSITIVE_INFINITY;
      const reach = Math.ceil((0.5 * size) / 2) + 1;
      for (let k = key - reach; k <= key + reach; k++) {
        const bucket = buckets.get(k);
        if (!bucket) continue;
        for (const line of bucket) {
          const tol = 0.4 * Math.min(size, line.size) + 0.3;
          const dv = Math.abs(line.vc - fw.vc);
          if (dv > tol) continue;
          if (Math.abs(line.size - size) > 0.25 * Math.max(line.size, size)) continue;
          const gap = fw.frame.x0 - line.u1;
          if (gap > options.gapFactor * Math.max(size, line.size) || gap < -0.6 * size) continue;
          const score = dv + Math.abs(gap) * 0.01;
          if (score < bestScore) {
            bestScore = score;
            best = line;
          }
        }
      }
      if (best) {
        best.items.push(fw);
        best.u1 = Math.max(best.u1, fw.frame.x1);
      } else {
        const line: OpenLine = { items: [fw], vc: fw.vc, u1: fw.frame.x1, size };
        all.push(line);
        const bucket = buckets.get(key) ?? [];
        bucket.push(line);
        buckets.set(key, bucket);
      }
    }
    for (const open of all) lines.push(finishLine(open, dir));
  }
  return sortReadingOrder(lines);
};

const finishLine = (open: OpenLine, dir: TextDirection): Line => {
  const items = open.items;
  // Merge fragments of one word (pdf.js often splits words at kerning or font changes).
  const merged: Word[] = [];
  let prev: FrameWord | undefined;
  for (const fw of items) {
    const last = merged[merged.length - 1];
    if (last && prev && fw.frame.x0 - prev.frame.x1 < 0.12 * fw.word.size) {
      const union = boxOf([last, fw.word]);
      merged[merged.length - 1] = { ...last, ...union, text: last.text + fw.word.text };
    } else {
      merged.push(fw.word);
    }
    prev = fw;
  }
  const box = boxOf(merged);
  const sizes = merged.map((word) => word.size);
  return {
    ...box,
    words: merged,
    text: merged.map((word) => word.text).join(' '),
    size: Math.max(...sizes),
    dir,
  };
};

/** Horizontal lines top-to-bottom then left-to-right; rotated lines after them. */
export const sortReadingOrder = (lines: Line[]): Line[] =>
  lines.sort((a, b) => {
    if (a.dir !== b.dir) return a.dir - b.dir;
    const fa = toFrame(a.dir, a);
    const fb = toFrame(b.dir, b);
    const va = (fa.y0 + fa.y1) / 2;
    const vb = (fb.y0 + fb.y1) / 2;
    if (Math.abs(va - vb) > 0.5 * Math.min(a.size, b.size)) return va - vb;
    return fa.x0 - fb.x0;
  });

/** Text of lines in reading order, one line per row, rows joined by newlines. */
export const linesToText = (lines: readonly Line[]): string => lines.map((line) => line.text).join('\n');

/** Position of a box in a line's reading frame, for code that reasons along and across the text. */
export const frameOf = toFrame;
