/**
 * Region frames and labels added to a page open in PDFium as page objects, so that PDFium draws them with the
 * page (an overlay needs no canvas and no font of the system: labels are set in the standard Helvetica-Bold
 * PDFium carries). The objects live in the open page only: its content stream is never regenerated, so the
 * file's bytes and any later load of the page are unchanged.
 */
import { type Box, invert, type Matrix } from '../geometry.ts';
import { heapOf, type PdfiumPage, scratchOf } from './pdfium.ts';

export type Rgb = readonly [number, number, number];

export interface RegionMark {
  /** Display points (top-left origin, y down). */
  box: Box;
  color: Rgb;
  /** A dashed frame (a region's title) rather than a solid one. */
  dashed?: boolean;
  /** Set above the frame's top left corner on a pale ground. */
  label?: string;
}

/** fpdf_edit.h path fill modes. */
const FPDF_FILLMODE_NONE = 0;
const FPDF_FILLMODE_ALTERNATE = 1;
/** The ground under a label: white at 80 %. */
const LABEL_GROUND = [255, 255, 255, 204] as const;

/**
 * Adds `marks` to the page: frames `strokePx` pixels wide and labels `fontPx` pixels high at `pixelsPerPoint`
 * (the scale the page will be rendered at), placed in display space whatever the page's /Rotate.
 */
export const addRegionMarks = (
  page: PdfiumPage,
  marks: readonly RegionMark[],
  pixelsPerPoint: number,
  { strokePx = 2, fontPx = 11 }: { strokePx?: number; fontPx?: number } = {},
): void => {
  const { pdfium } = page;
  const toUser = invert(page.geometry.transform);
  const place = (object: number, inDisplay: Matrix = [1, 0, 0, 1, 0, 0]): void => {
    pdfium.FPDFPageObj_Transform(object, ...inDisplay);
    pdfium.FPDFPageObj_Transform(object, ...toUser);
    pdfium.FPDFPage_InsertObject(page.handle, object);
  };
  const rect = (x: number, y: number, width: number, height: number): number => {
    const object = pdfium.FPDFPageObj_CreateNewRect(x, y, width, height);
    if (!object) throw new Error('PDFium could not create a rectangle.');
    return object;
  };
  const px = 1 / pixelsPerPoint;
  const fontPt = fontPx * px;
  const scratch = scratchOf(pdfium);
  const font = pdfium.FPDFText_LoadStandardFont(page.documentHandle, 'Helvetica-Bold');
  try {
    for (const mark of marks) {
      const [r, g, b] = mark.color;
      const { x0, y0, x1, y1 } = mark.box;
      const frame = rect(x0, y0, x1 - x0, y1 - y0);
      pdfium.FPDFPageObj_SetStrokeColor(frame, r, g, b, 255);
      pdfium.FPDFPageObj_SetStrokeWidth(frame, strokePx * px);
      if (mark.dashed) {
        const floats = heapOf(pdfium).HEAPF32;
        floats[scratch.ptr >> 2] = 4 * px;
        floats[(scratch.ptr >> 2) + 1] = 3 * px;
        pdfium.FPDFPageObj_SetDashArray(frame, scratch.ptr, 2, 0);
      }
      pdfium.FPDFPath_SetDrawMode(frame, FPDF_FILLMODE_NONE, true);
      place(frame);
      if (!mark.label || !font) continue;
      const text = pdfium.FPDFPageObj_CreateTextObj(page.documentHandle, font, fontPt);
      if (!text) continue;
      setText(page, text, mark.label);
      // The label's advance, from its bounds before it is placed (text space is points at the origin).
      const { ptr } = scratch;
      pdfium.FPDFPageObj_GetBounds(text, ptr, ptr + 4, ptr + 8, ptr + 12);
      const labelWidth = scratch.f32(2) - scratch.f32(0);
      const bottom = Math.max(fontPt + 2 * px, y0);
      const ground = rect(x0, bottom - fontPt - 2 * px, labelWidth + 6 * px, fontPt + 4 * px);
      pdfium.FPDFPageObj_SetFillColor(ground, ...LABEL_GROUND);
      pdfium.FPDFPath_SetDrawMode(ground, FPDF_FILLMODE_ALTERNATE, false);
      place(ground);
      pdfium.FPDFPageObj_SetFillColor(text, r, g, b, 255);
      // Text space is y up, display space y down: flipped, with the baseline a fifth of the size above `bottom`.
      place(text, [1, 0, 0, -1, x0 + 3 * px, bottom - 0.2 * fontPt]);
    }
  } finally {
    if (font) pdfium.FPDFFont_Close(font);
  }
};

/** A text object's text, passed to PDFium as UTF-16LE with a terminating zero. */
const setText = (page: PdfiumPage, text: number, value: string): void => {
  const { pdfium } = page;
  const pointer = pdfium.pdfium.wasmExports.malloc((value.length + 1) * 2);
  try {
    const units = heapOf(pdfium).HEAPU16;
    for (let i = 0; i < value.length; i++) units[(pointer >> 1) + i] = value.charCodeAt(i);
    units[(pointer >> 1) + value.length] = 0;
    pdfium.FPDFText_SetText(text, pointer);
  } finally {
    pdfium.pdfium.wasmExports.free(pointer);
  }
};
