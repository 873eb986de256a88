/**
 * The extent of every save/restore group of an operator list, for renders of part of a page. CAD plots draw
 * each path in a group of its own (`q cm J w gs j ... path Q`: about seven operators a path), and pdf.js calls
 * the canvas for each of them; a render that leaves out only the paths outside its area still pays for the
 * rest of every group. A group whose whole drawing lies outside the rendered area is left out from its save to
 * its restore (see render.ts).
 */
import type { Box } from '../geometry.ts';
import { type Matrix, multiply } from '../geometry.ts';
import type { OperatorList, PageGeometry, PdfJs } from './pdf.ts';

/** A group's restore index and the display box of what it draws; null box when its extent is not known. */
export interface GroupExtent {
  end: number;
  box: Box | null;
}

interface OpenGroup {
  start: number;
  box: Box | null;
  /** Whether everything drawn so far has a known extent. */
  bounded: boolean;
}

/** Per list, per frame (the page transform: a sheet read turned has extents of its own). */
const extentsByList = new WeakMap<OperatorList, Map<string, Map<number, GroupExtent>>>();

/** Operators that draw something whose extent is not taken from a path's box (text, images, shadings). */
const unboundedOperators = (pdfjs: PdfJs): Set<number> => {
  const { OPS } = pdfjs;
  return new Set([
    OPS.showText,
    OPS.showSpacedText,
    OPS.nextLineShowText,
    OPS.nextLineSetSpacingShowText,
    OPS.paintImageXObject,
    OPS.paintImageMaskXObject,
    OPS.paintInlineImageXObject,
    OPS.paintImageXObjectRepeat,
    OPS.paintImageMaskXObjectRepeat,
    OPS.paintImageMaskXObjectGroup,
    OPS.paintInlineImageXObjectGroup,
    OPS.paintSolidColorImageMask,
    OPS.shadingFill,
  ]);
};

const union = (a: Box | null, b: Box): Box =>
  a
    ? {
        x0: Math.min(a.x0, b.x0),
        y0: Math.min(a.y0, b.y0),
        x1: Math.max(a.x1, b.x1),
        y1: Math.max(a.y1, b.y1),
      }
    : b;

/** The display box of a path's user-space box under a matrix. */
const displayBox = (userBox: ArrayLike<number>, m: Matrix): Box => {
  const minX = userBox[0] ?? 0;
  const minY = userBox[1] ?? 0;
  const maxX = userBox[2] ?? 0;
  const maxY = userBox[3] ?? 0;
  const xs = [
    m[0] * minX + m[2] * minY,
    m[0] * minX + m[2] * maxY,
    m[0] * maxX + m[2] * minY,
    m[0] * maxX + m[2] * maxY,
  ];
  const ys = [
    m[1] * minX + m[3] * minY,
    m[1] * minX + m[3] * maxY,
    m[1] * maxX + m[3] * minY,
    m[1] * maxX + m[3] * maxY,
  ];
  return {
    x0: Math.min(...xs) + m[4],
    y0: Math.min(...ys) + m[5],
    x1: Math.max(...xs) + m[4],
    y1: Math.max(...ys) + m[5],
  };
};

/**
 * The extents of the list's groups by the index of their save, computed once per list. Groups after a
 * transparency group or an annotation (transforms of their own) are not listed, nor groups left open.
 */
export const groupExtents = (
  list: OperatorList,
  pdfjs: PdfJs,
  geometry: PageGeometry,
): Map<number, GroupExtent> => {
  const frame = geometry.transform.join(',');
  const byFrame = extentsByList.get(list) ?? new Map<string, Map<number, GroupExtent>>();
  extentsByList.set(list, byFrame);
  const known = byFrame.get(frame);
  if (known) return known;
  const { OPS } = pdfjs;
  const unbounded = unboundedOperators(pdfjs);
  const extents = new Map<number, GroupExtent>();
  const base = geometry.transform as Matrix;
  const identity: Matrix = [1, 0, 0, 1, 0, 0];
  let ctm = identity;
  const matrices: Matrix[] = [];
  const open: OpenGroup[] = [];
  const operands = list.argsArray as unknown[][];
  for (let index = 0; index < list.fnArray.length; index++) {
    const operator = list.fnArray[index];
    const args = operands[index];
    if (operator === OPS.beginGroup || operator === OPS.beginAnnotation) break;
    const top = open[open.length - 1];
    if (operator === OPS.save) {
      matrices.push(ctm);
      open.push({ start: index, box: null, bounded: true });
    } else if (operator === OPS.restore) {
      ctm = matrices.pop() ?? identity;
      const group = open.pop();
      if (!group) continue;
      extents.set(group.start, { end: index, box: group.bounded ? group.box : null });
      const parent = open[open.length - 1];
      if (parent) {
        parent.bounded &&= group.bounded;
        if (group.box) parent.box = union(parent.box, group.box);
      }
    } else if (operator === OPS.transform && args) ctm = multiply(ctm, args as unknown as Matrix);
    else if (operator === OPS.paintFormXObjectBegin && args) {
      matrices.push(ctm);
      const matrix = args[0] as Matrix | null;
      if (matrix) ctm = multiply(ctm, matrix);
    } else if (operator === OPS.paintFormXObjectEnd) ctm = matrices.pop() ?? identity;
    else if (operator === OPS.constructPath && top) {
      const userBox = args?.[2] as ArrayLike<number> | null | undefined;
      if (userBox && userBox.length >= 4) top.box = union(top.box, displayBox(userBox, multiply(base, ctm)));
      else top.bounded = false;
    } else if (top && operator !== undefined && unbounded.has(operator)) top.bounded = false;
  }
  byFrame.set(frame, extents);
  return extents;
};
