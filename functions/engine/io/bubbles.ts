/**
 * Circles drawn on a sheet (view-number bubbles, section and detail markers), from its operator list. CAD
 * plots draw a circle as one path of curves, as a polyline, or as dozens of separate two-point strokes: stroked
 * pieces are chained at their shared ends, and a closed chain whose points lie at one distance from its
 * centre is a circle.
 */
import type { Box, Matrix } from '../geometry.ts';
import { unionFind } from '../union-find.ts';
import { drawingOperatorList, type PageGeometry, type PdfJs, type PdfPage } from './pdf.ts';
import { forEachPath } from './rulings.ts';

export interface Bubble {
  box: Box;
  /** Diameter in points. */
  diameter: number;
}

/** Bubbles are this large: smaller circles are lettering (`O`, `0`) or symbols, larger ones are drawing. */
const MIN_DIAMETER = 12;
const MAX_DIAMETER = 100;
/**
 * A straight piece longer than this is no piece of a bubble's outline (a side of at least 12 around the
 * circle); a curve's chord may be as long as the diameter (four quarter arcs).
 */
const MAX_LINE_PIECE = MAX_DIAMETER * 0.3;
/** Points of a circle lie within this fraction of the radius from it. */
const RADIUS_TOLERANCE = 0.12;
/** A circle is drawn with at least this many pieces (curves or chords). */
const MIN_PIECES = 4;
/** Pieces are chained when their ends lie within this many points. */
const JOIN = 0.6;

interface Piece {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/**
 * A numeric map key of a point on a grid (page coordinates are far below KEY_OFFSET cells either way): number
 * keys cost far less than string keys, and every short piece of a sheet (tens of thousands) is looked up.
 */
const KEY_OFFSET = 1 << 20;
const gridKey = (column: number, row: number): number =>
  (column + KEY_OFFSET) * 2 * KEY_OFFSET + row + KEY_OFFSET;

/** The pieces' chains that close into a circle of a bubble's size. */
export const circlesOf = (pieces: readonly Piece[]): Bubble[] => {
  const sets = unionFind(pieces.length);
  const keyOf = (x: number, y: number): number => gridKey(Math.round(x / JOIN), Math.round(y / JOIN));
  const atEnd = new Map<number, number>();
  const link = (x: number, y: number, index: number): void => {
    const key = keyOf(x, y);
    const other = atEnd.get(key);
    if (other === undefined) atEnd.set(key, index);
    else sets.union(other, index);
  };
  pieces.forEach((piece, index) => {
    link(piece.x0, piece.y0, index);
    link(piece.x1, piece.y1, index);
  });
  const chains = new Map<number, Piece[]>();
  pieces.forEach((piece, index) => {
    const root = sets.find(index);
    const chain = chains.get(root);
    if (chain) chain.push(piece);
    else chains.set(root, [piece]);
  });
  const out: Bubble[] = [];
  for (const chain of chains.values()) {
    if (chain.length < MIN_PIECES) continue;
    const xs = chain.flatMap((piece) => [piece.x0, piece.x1]);
    const ys = chain.flatMap((piece) => [piece.y0, piece.y1]);
    const box = { x0: Math.min(...xs), y0: Math.min(...ys), x1: Math.max(...xs), y1: Math.max(...ys) };
    const width = box.x1 - box.x0;
    const height = box.y1 - box.y0;
    if (width < MIN_DIAMETER || width > MAX_DIAMETER || height < 0.88 * width || height > 1.14 * width)
      continue;
    const cx = (box.x0 + box.x1) / 2;
    const cy = (box.y0 + box.y1) / 2;
    const radius = (width + height) / 4;
    const onCircle = (x: number, y: number): boolean =>
      Math.abs(Math.hypot(x - cx, y - cy) - radius) <= RADIUS_TOLERANCE * radius;
    if (!chain.every((piece) => onCircle(piece.x0, piece.y0) && onCircle(piece.x1, piece.y1))) continue;
    out.push({ box, diameter: (width + height) / 2 });
  }
  return out;
};

/** Ink is counted on a grid of cells this large (points). */
const INK_CELL = 8;
/** Pieces this short are strokes or outlines of lettering (and of hatching, symbols, small details). */
const MAX_INK_PIECE = 12;

export interface SheetBubbles {
  bubbles: Bubble[];
  /** Short drawn pieces (lettering among them) in an area: a title drawn in outlines beside a bubble is many. */
  inkIn: (area: Box) => number;
}

/** The bubbles (circles of a bubble's size) a page draws, in display points, and where its short strokes are. */
export const findBubbles = async (
  page: PdfPage,
  pdfjs: PdfJs,
  geometry: PageGeometry,
): Promise<SheetBubbles> => {
  const list = await drawingOperatorList(page);
  const { OPS } = pdfjs;
  const strokes = new Set<number>([OPS.stroke, OPS.closeStroke, OPS.fillStroke, OPS.closeFillStroke]);
  const pieces: Piece[] = [];
  const ink = new Map<number, number>();
  // The path being walked: its matrix to display points, whether it is stroked, its pen and subpath start.
  let matrix: Matrix = [1, 0, 0, 1, 0, 0];
  let stroked = false;
  let cu = 0;
  let cv = 0;
  const piece = (u: number, v: number, curve: boolean): void => {
    const x0 = matrix[0] * cu + matrix[2] * cv + matrix[4];
    const y0 = matrix[1] * cu + matrix[3] * cv + matrix[5];
    const x1 = matrix[0] * u + matrix[2] * v + matrix[4];
    const y1 = matrix[1] * u + matrix[3] * v + matrix[5];
    const length = Math.hypot(x1 - x0, y1 - y0);
    if (stroked && length > 0.05 && length <= (curve ? MAX_DIAMETER : MAX_LINE_PIECE))
      pieces.push({ x0, y0, x1, y1 });
    if (length > 0.05 && length <= MAX_INK_PIECE) {
      const key = gridKey(Math.floor((x0 + x1) / 2 / INK_CELL), Math.floor((y0 + y1) / 2 / INK_CELL));
      ink.set(key, (ink.get(key) ?? 0) + 1);
    }
    cu = u;
    cv = v;
  };
  forEachPath(list, pdfjs, geometry, (index, data, _userBox, toDisplay) => {
    const paint = (list.argsArray[index] as unknown[] | undefined)?.[0];
    if (typeof paint !== 'number') return;
    stroked = strokes.has(paint);
    matrix = toDisplay;
    const at = (i: number): number => data[i] ?? 0;
    cu = 0;
    cv = 0;
    let su = 0;
    let sv = 0;
    // pdf.js path codes: 0 moveTo x y, 1 lineTo x y, 2 curveTo (3 points), 3 quadraticCurveTo (2 points), 4 close.
    for (let i = 0; i < data.length; ) {
      const code = data[i++];
      if (code === 0) {
        cu = at(i);
        cv = at(i + 1);
        su = cu;
        sv = cv;
        i += 2;
      } else if (code === 1) {
        piece(at(i), at(i + 1), false);
        i += 2;
      } else if (code === 2) {
        piece(at(i + 4), at(i + 5), true);
        i += 6;
      } else if (code === 3) {
        piece(at(i + 2), at(i + 3), true);
        i += 4;
      } else if (code === 4) {
        piece(su, sv, false);
      } else break;
    }
  });
  const inkIn = (area: Box): number => {
    let count = 0;
    for (let cx = Math.floor(area.x0 / INK_CELL); cx <= Math.floor(area.x1 / INK_CELL); cx++)
      for (let cy = Math.floor(area.y0 / INK_CELL); cy <= Math.floor(area.y1 / INK_CELL); cy++)
        count += ink.get(gridKey(cx, cy)) ?? 0;
    return count;
  };
  return { bubbles: circlesOf(pieces), inkIn };
};
