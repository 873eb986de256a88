import type { DisplayBox } from './model.ts';

/** Internal box: display points, x0 <= x1, y0 <= y1 (y down). */
export interface Box {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** Reading direction of text on the displayed page: 0 left-to-right, 90 top-to-bottom, 270 bottom-to-top. */
export type TextDirection = 0 | 90 | 180 | 270;

/** An affine transform `[a, b, c, d, e, f]` (PDF's order): x' = a x + c y + e, y' = b x + d y + f. */
export type Matrix = [number, number, number, number, number, number];

/** `outer` after `inner`: the transform that applies `inner` first. */
export const multiply = (outer: Matrix, inner: Matrix): Matrix => [
  outer[0] * inner[0] + outer[2] * inner[1],
  outer[1] * inner[0] + outer[3] * inner[1],
  outer[0] * inner[2] + outer[2] * inner[3],
  outer[1] * inner[2] + outer[3] * inner[3],
  outer[0] * inner[4] + outer[2] * inner[5] + outer[4],
  outer[1] * inner[4] + outer[3] * inner[5] + outer[5],
];

/** The inverse of an affine matrix (its determinant not zero). */
export const invert = ([a, b, c, d, e, f]: Matrix): Matrix => {
  const det = a * d - b * c;
  return [d / det, -b / det, -c / det, a / det, (c * f - d * e) / det, (b * e - a * f) / det];
};

/** A point under a matrix. */
export const applyMatrix = (matrix: Matrix, x: number, y: number): [number, number] => [
  matrix[0] * x + matrix[2] * y + matrix[4],
  matrix[1] * x + matrix[3] * y + matrix[5],
];

export interface Word extends Box {
  text: string;
  /** Glyph height (font size) in points. */
  size: number;
  dir: TextDirection;
  font: string;
  source: 'textLayer' | 'ocr';
  /** OCR confidence 0..100; null for text-layer words. */
  confidence: number | null;
}

export interface Line extends Box {
  words: Word[];
  text: string;
  size: number;
  dir: TextDirection;
}

export const boxOf = (items: readonly Box[]): Box => {
  let x0 = Number.POSITIVE_INFINITY;
  let y0 = Number.POSITIVE_INFINITY;
  let x1 = Number.NEGATIVE_INFINITY;
  let y1 = Number.NEGATIVE_INFINITY;
  for (const box of items) {
    if (box.x0 < x0) x0 = box.x0;
    if (box.y0 < y0) y0 = box.y0;
    if (box.x1 > x1) x1 = box.x1;
    if (box.y1 > y1) y1 = box.y1;
  }
  return { x0, y0, x1, y1 };
};

export const width = (box: Box): number => box.x1 - box.x0;
export const height = (box: Box): number => box.y1 - box.y0;
export const area = (box: Box): number => Math.max(0, width(box)) * Math.max(0, height(box));
export const centerX = (box: Box): number => (box.x0 + box.x1) / 2;
export const centerY = (box: Box): number => (box.y0 + box.y1) / 2;

export const intersection = (first: Box, second: Box): number =>
  Math.max(0, Math.min(first.x1, second.x1) - Math.max(first.x0, second.x0)) *
  Math.max(0, Math.min(first.y1, second.y1) - Math.max(first.y0, second.y0));

export const iou = (first: Box, second: Box): number => {
  const inter = intersection(first, second);
  const union = area(first) + area(second) - inter;
  return union > 0 ? inter / union : 0;
};

/** Distance between two boxes in points (0 when they touch or overlap). */
export const boxGap = (first: Box, second: Box): number =>
  Math.hypot(
    Math.max(0, first.x0 - second.x1, second.x0 - first.x1),
    Math.max(0, first.y0 - second.y1, second.y0 - first.y1),
  );

export const contains = (outer: Box, inner: Box, slack = 0): boolean =>
  inner.x0 >= outer.x0 - slack &&
  inner.y0 >= outer.y0 - slack &&
  inner.x1 <= outer.x1 + slack &&
  inner.y1 <= outer.y1 + slack;

export const centerInside = (outer: Box, inner: Box): boolean => {
  const cx = centerX(inner);
  const cy = centerY(inner);
  return cx >= outer.x0 && cx <= outer.x1 && cy >= outer.y0 && cy <= outer.y1;
};

export const expand = (box: Box, by: number): Box => ({
  x0: box.x0 - by,
  y0: box.y0 - by,
  x1: box.x1 + by,
  y1: box.y1 + by,
});

export const clampBox = (box: Box, pageWidth: number, pageHeight: number): Box => ({
  x0: Math.max(0, Math.min(pageWidth, box.x0)),
  y0: Math.max(0, Math.min(pageHeight, box.y0)),
  x1: Math.max(0, Math.min(pageWidth, box.x1)),
  y1: Math.max(0, Math.min(pageHeight, box.y1)),
});

const round = (value: number): number => Math.round(value * 10) / 10;

export const toDisplayBox = (box: Box): DisplayBox => ({
  left: round(box.x0),
  top: round(box.y0),
  right: round(box.x1),
  bottom: round(box.y1),
});

export const fromDisplayBox = (box: DisplayBox): Box => ({
  x0: box.left,
  y0: box.top,
  x1: box.right,
  y1: box.bottom,
});

export const median = (values: readonly number[]): number => {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  const upper = sorted[mid] ?? 0;
  return sorted.length % 2 ? upper : ((sorted[mid - 1] ?? upper) + upper) / 2;
};
