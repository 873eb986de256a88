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
  for (const b of items) {
    if (b.x0 < x0) x0 = b.x0;
    if (b.y0 < y0) y0 = b.y0;
    if (b.x1 > x1) x1 = b.x1;
    if (b.y1 > y1) y1 = b.y1;
  }
  return { x0, y0, x1, y1 };
};

export const width = (b: Box): number => b.x1 - b.x0;
export const height = (b: Box): number => b.y1 - b.y0;
export const area = (b: Box): number => Math.max(0, width(b)) * Math.max(0, height(b));
export const centerX = (b: Box): number => (b.x0 + b.x1) / 2;
export const centerY = (b: Box): number => (b.y0 + b.y1) / 2;

export const intersection = (a: Box, b: Box): number =>
  Math.max(0, Math.min(a.x1, b.x1) - Math.max(a.x0, b.x0)) *
  Math.max(0, Math.min(a.y1, b.y1) - Math.max(a.y0, b.y0));

export const iou = (a: Box, b: Box): number => {
  const inter = intersection(a, b);
  const union = area(a) + area(b) - inter;
  return union > 0 ? inter / union : 0;
};

/** Distance between two boxes in points (0 when they touch or overlap). */
export const boxGap = (a: Box, b: Box): number =>
  Math.hypot(Math.max(0, a.x0 - b.x1, b.x0 - a.x1), Math.max(0, a.y0 - b.y1, b.y0 - a.y1));

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

export const expand = (b: Box, by: number): Box => ({
  x0: b.x0 - by,
  y0: b.y0 - by,
  x1: b.x1 + by,
  y1: b.y1 + by,
});

export const clampBox = (b: Box, pageWidth: number, pageHeight: number): Box => ({
  x0: Math.max(0, Math.min(pageWidth, b.x0)),
  y0: Math.max(0, Math.min(pageHeight, b.y0)),
  x1: Math.max(0, Math.min(pageWidth, b.x1)),
  y1: Math.max(0, Math.min(pageHeight, b.y1)),
});

const round = (v: number): number => Math.round(v * 10) / 10;

export const toDisplayBox = (b: Box): DisplayBox => ({
  left: round(b.x0),
  top: round(b.y0),
  right: round(b.x1),
  bottom: round(b.y1),
});

export const fromDisplayBox = (b: DisplayBox): Box => ({ x0: b.left, y0: b.top, x1: b.right, y1: b.bottom });

export const median = (values: readonly number[]): number => {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  const upper = sorted[mid] ?? 0;
  return sorted.length % 2 ? upper : ((sorted[mid - 1] ?? upper) + upper) / 2;
};
