/**
 * The paths a page draws, from PDFium's page objects (`FPDFPage_GetObject`, `FPDFPath_*`), without an
 * operator list: each path object's segments in its own space and the matrix that takes them to display
 * points (the page's matrix, the matrices of the form XObjects it sits in, its own), and the clipping paths
 * the page's own objects are drawn under, each once (`W n`: pdf.js's operator list has them as paths too,
 * and the page frame and viewport borders of CAD sheets are clipping rectangles). Inside a form XObject an
 * object's clipping path also holds the form's bounding box, which pdf.js's list has not as a path, and
 * PDFium gives no way to tell the two apart: clipping paths inside forms are not read.
 */
import { type Matrix, multiply } from '../geometry.ts';
import { type PdfiumPage, rawExports, scratchOf } from './pdfium.ts';

/** FPDF_PAGEOBJ_* and FPDF_SEGMENT_* (fpdf_edit.h). */
const PAGEOBJ_PATH = 2;
const PAGEOBJ_IMAGE = 3;
const PAGEOBJ_FORM = 5;
const SEGMENT_LINETO = 0;
const SEGMENT_BEZIERTO = 1;
const SEGMENT_MOVETO = 2;

/** Path codes as pdf.js writes them (0 moveTo x y, 1 lineTo x y, 2 curveTo 3 points, 4 close). */
export const PATH_MOVE = 0;
export const PATH_LINE = 1;
export const PATH_CURVE = 2;
export const PATH_CLOSE = 4;

/**
 * Calls `visitors.path` for every path object of the page (in drawing order, form XObjects entered) with its
 * segments as pdf.js path codes and its matrix to display points, and `visitors.image` for every image with
 * its matrix. Returns the number of page objects seen; stops (returning more than `maxObjects`) once past
 * `maxObjects`.
 */
export const forEachPdfiumObject = (
  page: PdfiumPage,
  maxObjects: number,
  visitors: {
    path?: (data: readonly number[], toDisplay: Matrix) => void;
    image?: (toDisplay: Matrix) => void;
  },
): number => {
  const { pdfium } = page;
  const raw = rawExports(pdfium);
  const scratch = scratchOf(pdfium);
  const getType = raw.FPDFPageObj_GetType as (object: number) => number;
  const getMatrix = raw.FPDFPageObj_GetMatrix as (object: number, matrix: number) => number;
  const countSegments = raw.FPDFPath_CountSegments as (path: number) => number;
  const getSegment = raw.FPDFPath_GetPathSegment as (path: number, index: number) => number;
  const segmentType = raw.FPDFPathSegment_GetType as (segment: number) => number;
  const segmentPoint = raw.FPDFPathSegment_GetPoint as (segment: number, x: number, y: number) => number;
  const segmentClose = raw.FPDFPathSegment_GetClose as (segment: number) => number;
  const countFormObjects = raw.FPDFFormObj_CountObjects as (form: number) => number;
  const formObject = raw.FPDFFormObj_GetObject as (form: number, index: number) => number;
  let seen = 0;
  const matrixOf = (object: number): Matrix => {
    if (!getMatrix(object, scratch.ptr)) return [1, 0, 0, 1, 0, 0];
    return [scratch.f32(0), scratch.f32(1), scratch.f32(2), scratch.f32(3), scratch.f32(4), scratch.f32(5)];
  };
  /** A path's segments as pdf.js path codes (a Bézier is three segments, two control points and its end). */
  const pathCodes = (segments: number, segmentAt: (at: number) => number): number[] => {
    const data: number[] = [];
    let pending: number[] = [];
    for (let at = 0; at < segments; at++) {
      const segment = segmentAt(at);
      if (!segmentPoint(segment, scratch.ptr, scratch.ptr + 4)) continue;
      const x = scratch.f32(0);
      const y = scratch.f32(1);
      const kind = segmentType(segment);
      if (kind === SEGMENT_MOVETO) data.push(PATH_MOVE, x, y);
      else if (kind === SEGMENT_LINETO) data.push(PATH_LINE, x, y);
      else if (kind === SEGMENT_BEZIERTO) {
        pending.push(x, y);
        if (pending.length === 6) {
          data.push(PATH_CURVE, ...pending);
          pending = [];
        }
      }
      if (segmentClose(segment)) data.push(PATH_CLOSE);
    }
    return data;
  };
  const walk = (
    count: number,
    objectAt: (index: number) => number,
    outer: Matrix,
    depth: number,
  ): boolean => {
    for (let index = 0; index < count; index++) {
      if (++seen > maxObjects) return false;
      const object = objectAt(index);
      const type = getType(object);
      if (type === PAGEOBJ_FORM) {
        const inner = multiply(outer, matrixOf(object));
        if (!walk(countFormObjects(object), (at) => formObject(object, at), inner, depth + 1)) return false;
      } else if (type === PAGEOBJ_PATH && visitors.path) {
        const data = pathCodes(countSegments(object), (at) => getSegment(object, at));
        visitors.path(data, multiply(outer, matrixOf(object)));
      } else if (type === PAGEOBJ_IMAGE && visitors.image) visitors.image(multiply(outer, matrixOf(object)));
      if (depth === 0 && visitors.path) visitClip(object);
    }
    return true;
  };
  // A page object's clipping path is in page space; objects drawn under the same clip each carry a copy.
  const clips = new Set<string>();
  const getClip = raw.FPDFPageObj_GetClipPath as (object: number) => number;
  const countClipPaths = raw.FPDFClipPath_CountPaths as (clip: number) => number;
  const countClipSegments = raw.FPDFClipPath_CountPathSegments as (clip: number, path: number) => number;
  const clipSegment = raw.FPDFClipPath_GetPathSegment as (
    clip: number,
    path: number,
    index: number,
  ) => number;
  const visitClip = (object: number): void => {
    const clip = getClip(object);
    if (!clip) return;
    const paths = countClipPaths(clip);
    for (let path = 0; path < paths; path++) {
      const segments = countClipSegments(clip, path);
      const data = pathCodes(segments, (at) => clipSegment(clip, path, at));
      const key = data.join(',');
      if (clips.has(key)) continue;
      clips.add(key);
      visitors.path?.(data, page.geometry.transform);
    }
  };
  walk(
    pdfium.FPDFPage_CountObjects(page.handle),
    (index) => pdfium.FPDFPage_GetObject(page.handle, index),
    page.geometry.transform,
    0,
  );
  return seen;
};
