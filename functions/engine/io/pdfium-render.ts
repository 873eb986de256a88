/**
 * Renders of part of a page with PDFium (FPDF_RenderPageBitmapWithMatrix): the pixels of a display box at a
 * scale, as RGBA. A large render is drawn in strips, each on a bitmap of its own freed at once, so the wasm
 * heap (2 GB at most, never given back) holds one strip at a time, not the whole render: a 42 x 30 in sheet
 * at 300 dpi is 113 million pixels, 450 MB as one RGBA bitmap.
 */

import { type Turn, turnedSize } from '../drawings/reading-frame.ts';
import type { Box } from '../geometry.ts';
import { heapOf, type PdfiumPage } from './pdfium.ts';

/** FPDFBitmap formats and render flags (fpdfview.h). */
const FPDF_BITMAP_BGRX = 3;
const FPDF_ANNOT = 0x01;
/** Bytes in R, G, B order (RGBx: as canvases and encoders take pixels, with no swizzling). */
const FPDF_REVERSE_BYTE_ORDER = 0x10;
const WHITE = 0xffffffff;

/** Most pixels of one strip's bitmap (64 MB of BGRx). */
const MAX_STRIP_PIXELS = 16_000_000;

export interface RenderedPixels {
  width: number;
  height: number;
  /** RGBA, row after row, opaque. */
  data: Uint8ClampedArray;
}

/**
 * The display box `box` (points, top-left origin) at `scale` pixels a point, on a `width` x `height` pixel
 * image with a white ground; annotations' appearances are drawn, as viewers draw them. The page is placed
 * at whole-pixel offsets (FPDF_RenderPageBitmap; this build's FPDF_RenderPageBitmapWithMatrix fails with
 * a function-table error), so the pixels cover `box` moved by half a pixel at most.
 */
export const renderBox = (
  page: PdfiumPage,
  box: Box,
  scale: number,
  width: number,
  height: number,
  /** `box` is in the displayed page turned clockwise by this (reading-frame.ts: a quarter turn swaps its sides). */
  turn: Turn = 0,
  /** Most pixels of one strip's bitmap. */
  maxStripPixels = MAX_STRIP_PIXELS,
): RenderedPixels => {
  const { pdfium } = page;
  const geometry = turnedSize(page.geometry, turn);
  const out = new Uint8ClampedArray(width * height * 4);
  const offsetX = Math.round(box.x0 * scale);
  const offsetY = Math.round(box.y0 * scale);
  const pageWidth = Math.max(1, Math.round(geometry.width * scale));
  const pageHeight = Math.max(1, Math.round(geometry.height * scale));
  const stripRows = Math.max(1, Math.floor(maxStripPixels / Math.max(1, width)));
  for (let top = 0; top < height; top += stripRows) {
    const rows = Math.min(stripRows, height - top);
    const bitmap = pdfium.FPDFBitmap_CreateEx(width, rows, FPDF_BITMAP_BGRX, 0, 0);
    if (!bitmap) throw new Error(`A ${width} x ${rows} bitmap does not fit in the PDF reader’s memory.`);
    try {
      pdfium.FPDFBitmap_FillRect(bitmap, 0, 0, width, rows, WHITE);
      pdfium.FPDF_RenderPageBitmap(
        bitmap,
        page.handle,
        -offsetX,
        -offsetY - top,
        pageWidth,
        pageHeight,
        // Quarter turns clockwise, on top of the page's own /Rotate.
        turn / 90,
        FPDF_ANNOT | FPDF_REVERSE_BYTE_ORDER,
      );
      // RGBx: the rows are copied as they are and the fourth byte set opaque. (A BGRA bitmap would save that
      // pass but blends edges slightly differently: up to 52 levels on a few thousand channels of a sheet.)
      const buffer = pdfium.FPDFBitmap_GetBuffer(bitmap);
      const stride = pdfium.FPDFBitmap_GetStride(bitmap);
      const bytes = heapOf(pdfium).HEAPU8;
      const rowBytes = width * 4;
      if (stride === rowBytes) out.set(bytes.subarray(buffer, buffer + rows * rowBytes), top * rowBytes);
      else
        for (let row = 0; row < rows; row++)
          out.set(
            bytes.subarray(buffer + row * stride, buffer + row * stride + rowBytes),
            (top + row) * rowBytes,
          );
      for (let alpha = top * rowBytes + 3, end = (top + rows) * rowBytes; alpha < end; alpha += 4)
        out[alpha] = 255;
    } finally {
      pdfium.FPDFBitmap_Destroy(bitmap);
    }
  }
  return { width, height, data: out };
};
