/**
 * Rendering part of a page to a canvas (crops, overlays, OCR input), bounded by a pixel budget.
 */
import { type Canvas, createCanvas } from '@napi-rs/canvas';
import { ExtractionError } from './errors.ts';
import type { Box } from './geometry.ts';
import type { PdfPage } from './pdf.ts';

export interface RenderedRegion {
  canvas: Canvas;
  /** Pixels per point actually used (may be below the requested dpi/72 when the pixel budget applies). */
  scale: number;
  box: Box;
}

/** Renders `box` (display points) of the page at `dpi`, scaled down to stay within `maxPixels`. */
export const renderRegion = async (
  page: PdfPage,
  box: Box,
  dpi: number,
  maxPixels: number,
): Promise<RenderedRegion> => {
  const w = Math.max(1, box.x1 - box.x0);
  const h = Math.max(1, box.y1 - box.y0);
  let scale = dpi / 72;
  if (w * h * scale * scale > maxPixels) scale = Math.sqrt(maxPixels / (w * h));
  const pw = Math.max(1, Math.round(w * scale));
  const ph = Math.max(1, Math.round(h * scale));
  const canvas = createCanvas(pw, ph);
  const context = canvas.getContext('2d');
  context.fillStyle = '#ffffff';
  context.fillRect(0, 0, pw, ph);
  const viewport = page.getViewport({ scale, offsetX: -box.x0 * scale, offsetY: -box.y0 * scale });
  try {
    // pdf.js types expect DOM canvases; @napi-rs/canvas implements the same 2D API.
    const params = { canvas, canvasContext: context, viewport, background: '#ffffff' };
    const task = page.render(params as unknown as Parameters<PdfPage['render']>[0]);
    await task.promise;
  } catch (error) {
    throw new ExtractionError(
      'render_failed',
      `Rendering page ${page.pageNumber} failed: ${(error as Error).message}`,
      {
        cause: error,
        pageNumber: page.pageNumber,
      },
    );
  }
  return { canvas, scale, box };
};
