/**
 * Long straight lines (rulings) of a page, from its operator list: title-block borders, table grids.
 * Only axis-aligned segments longer than a minimum length are kept, in display coordinates.
 */
import { applyMatrix, type Box, boxOf, type Matrix, multiply } from '../geometry.ts';
import { forEachPdfiumObject } from './paths.ts';
import {
  drawingOperatorList,
  type OperatorList,
  type PageGeometry,
  type PdfJs,
  type PdfPage,
  pathDataOf,
} from './pdf.ts';
import type { PdfiumPage } from './pdfium.ts';

export interface Ruling {
  /** 'h' horizontal (y fixed), 'v' vertical (x fixed). */
  axis: 'h' | 'v';
  /** Fixed coordinate (y for 'h', x for 'v'). */
  at: number;
  from: number;
  to: number;
}

/**
 * Calls `visit` for every path of an operator list with its operator index, its drawing data (pdf.js path
 * codes), its bounding box in user space when pdf.js gives one, and the matrix from user space to display
 * points (the page transform times the current transformation matrix, followed through save/restore,
 * `cm` and form XObjects).
 */
export const forEachPath = (
  list: OperatorList,
  pdfjs: PdfJs,
  geometry: PageGeometry,
  visit: (
    index: number,
    data: ArrayLike<number>,
    userBox: ArrayLike<number> | null,
    toDisplay: Matrix,
  ) => void,
): void => {
  const { OPS } = pdfjs;
  const operators = list.fnArray;
  const operands = list.argsArray as unknown[][];
  const base = geometry.transform as Matrix;
  let ctm: Matrix = [1, 0, 0, 1, 0, 0];
  const stack: Matrix[] = [];
  for (let index = 0; index < operators.length; index++) {
    const op = operators[index];
    const args = operands[index];
    if (op === OPS.save) stack.push(ctm);
    else if (op === OPS.restore) ctm = stack.pop() ?? [1, 0, 0, 1, 0, 0];
    else if (op === OPS.transform && args) ctm = multiply(ctm, args as unknown as Matrix);
    else if (op === OPS.paintFormXObjectBegin && args) {
      stack.push(ctm);
      const matrix = args[0] as Matrix | null;
      if (matrix) ctm = multiply(ctm, matrix);
    } else if (op === OPS.paintFormXObjectEnd) ctm = stack.pop() ?? [1, 0, 0, 1, 0, 0];
    else if (op === OPS.constructPath && args) {
      const data = pathDataOf(list, index);
      if (!data || typeof (data as ArrayLike<number>).length !== 'number') continue;
      const userBox = (args[2] as ArrayLike<number> | null | undefined) ?? null;
      visit(index, data as ArrayLike<number>, userBox, multiply(base, ctm));
    }
  }
};

/** Axis-aligned segments of at least `minLength` points, merged when collinear and touching. */
export const readRulings = async (
  page: PdfPage,
  pdfjs: PdfJs,
  geometry: PageGeometry,
  minLength: number,
  maxOps: number,
  /** Joins collinear pieces row by row (see mergeRulings). */
  rowsFirst = false,
): Promise<Ruling[]> => {
  const list = await drawingOperatorList(page);
  if (list.fnArray.length > maxOps) return [];
  const out: Ruling[] = [];
  forEachPath(list, pdfjs, geometry, (_index, path, _userBox, toDisplay) => {
    segmentsOf(path, toDisplay, minLength, out);
  });
  return mergeRulings(out, rowsFirst);
};

/** The axis-aligned segments of at least `minLength` points of one path (pdf.js path codes), added to `out`. */
const segmentsOf = (path: ArrayLike<number>, toDisplay: Matrix, minLength: number, out: Ruling[]): void => {
  const push = (x0: number, y0: number, x1: number, y1: number): void => {
    const [ax, ay] = applyMatrix(toDisplay, x0, y0);
    const [bx, by] = applyMatrix(toDisplay, x1, y1);
    if (Math.abs(ay - by) < 0.5 && Math.abs(ax - bx) >= minLength) {
      out.push({ axis: 'h', at: (ay + by) / 2, from: Math.min(ax, bx), to: Math.max(ax, bx) });
    } else if (Math.abs(ax - bx) < 0.5 && Math.abs(ay - by) >= minLength) {
      out.push({ axis: 'v', at: (ax + bx) / 2, from: Math.min(ay, by), to: Math.max(ay, by) });
    }
  };
  const coordinate = (at: number): number => path[at] ?? 0;
  let currentX = 0;
  let currentY = 0;
  let startX = 0;
  let startY = 0;
  // pdf.js path codes: 0 moveTo x y, 1 lineTo x y, 2 curveTo (3 points), 3 quadraticCurveTo (2 points), 4 close.
  for (let at = 0; at < path.length; ) {
    const code = path[at++];
    if (code === 0) {
      currentX = coordinate(at);
      currentY = coordinate(at + 1);
      at += 2;
      startX = currentX;
      startY = currentY;
    } else if (code === 1) {
      const x = coordinate(at);
      const y = coordinate(at + 1);
      at += 2;
      push(currentX, currentY, x, y);
      currentX = x;
      currentY = y;
    } else if (code === 2) {
      currentX = coordinate(at + 4);
      currentY = coordinate(at + 5);
      at += 6;
    } else if (code === 3) {
      currentX = coordinate(at + 2);
      currentY = coordinate(at + 3);
      at += 4;
    } else if (code === 4) {
      push(currentX, currentY, startX, startY);
      currentX = startX;
      currentY = startY;
    } else {
      break;
    }
  }
};

/**
 * `readRulings` from PDFium's page objects instead of pdf.js's operator list: no content stream parsed by
 * pdf.js. `maxObjects` bounds the page objects walked (none are read past it).
 */
export const readPdfiumRulings = (
  page: PdfiumPage,
  minLength: number,
  maxObjects: number,
  rowsFirst = false,
): Ruling[] =>
  joinSegments(readPdfiumObjects(page, minLength, maxObjects)?.segments ?? [], minLength, rowsFirst);

/**
 * The axis-aligned segments of at least `minLength` points of PDFium's page objects, not yet joined, and the
 * display boxes of the images the page places (a picture pasted on a drawing: a scanned schedule, a vendor's
 * table); null when the page has more than `maxObjects` objects. One walk serves every length and join a page
 * needs (joinSegments) and its pictures.
 */
export const readPdfiumObjects = (
  page: PdfiumPage,
  minLength: number,
  maxObjects: number,
): { segments: Ruling[]; images: Box[] } | null => {
  const segments: Ruling[] = [];
  const images: Box[] = [];
  const seen = forEachPdfiumObject(page, maxObjects, {
    path: (path, toDisplay) => segmentsOf(path, toDisplay, minLength, segments),
    // An image is drawn in the unit square of its own space.
    image: (toDisplay) =>
      images.push(
        boxOf(
          [
            [0, 0],
            [1, 0],
            [0, 1],
            [1, 1],
          ].map(([u = 0, v = 0]) => {
            const [x, y] = applyMatrix(toDisplay, u, v);
            return { x0: x, y0: y, x1: x, y1: y };
          }),
        ),
      ),
  });
  return seen > maxObjects ? null : { segments, images };
};

/** The segments of at least `minLength` points joined into rulings (see mergeRulings). */
export const joinSegments = (segments: readonly Ruling[], minLength: number, rowsFirst = false): Ruling[] =>
  mergeRulings(
    segments.filter((segment) => segment.to - segment.from >= minLength),
    rowsFirst,
  );

/**
 * Collinear pieces joined. By default pieces are taken in order of their fixed coordinate, and a piece within
 * 1 pt of the current ruling that starts before its end (2 pt) extends it; a piece slightly lower but further
 * left is then swallowed without extending it (the title-block search was tuned on this). `rowsFirst` first
 * gathers the pieces within 1 pt into one row (or column), then joins those that overlap or touch along it:
 * a border drawn in pieces at slightly different heights is one line.
 */
const mergeRulings = (rulings: Ruling[], rowsFirst: boolean): Ruling[] => {
  const merged: Ruling[] = [];
  const join = (row: Ruling[]): void => {
    let current: Ruling | null = null;
    for (const ruling of row) {
      if (current && Math.abs(ruling.at - current.at) < 1 && ruling.from <= current.to + 2) {
        current.to = Math.max(current.to, ruling.to);
      } else {
        if (current) merged.push(current);
        current = { ...ruling };
      }
    }
    if (current) merged.push(current);
  };
  for (const axis of ['h', 'v'] as const) {
    const list = rulings
      .filter((ruling) => ruling.axis === axis)
      .sort((a, b) => a.at - b.at || a.from - b.from);
    if (!rowsFirst) {
      join(list);
      continue;
    }
    for (let start = 0; start < list.length; ) {
      const first = list[start];
      if (!first) break;
      let end = start;
      while (end < list.length && (list[end]?.at ?? Number.POSITIVE_INFINITY) - first.at < 1) end++;
      join(list.slice(start, end).sort((a, b) => a.from - b.from));
      start = end;
    }
  }
  return merged;
};
