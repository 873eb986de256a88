/**
 * Rendering part of a page to a canvas (crops, overlays, OCR input), bounded by a pixel budget.
 */
import { type Canvas, createCanvas } from '@napi-rs/canvas';
import { ExtractionError } from './errors.ts';
import type { Box } from './geometry.ts';
import { loadPdfJs, type PdfPage } from './pdf.ts';

export interface RenderedRegion {
  canvas: Canvas;
  /** Pixels per point actually used (may be below the requested dpi/72 when the pixel budget applies). */
  scale: number;
  box: Box;
}

export interface RenderBudget {
  timeoutMs: number;
  /** Most the process RSS may grow while rendering. */
  maxGrowthBytes: number;
  maxPatternFills: number;
  maxOperators: number;
}

const DEFAULT_BUDGET: RenderBudget = {
  timeoutMs: 30_000,
  maxGrowthBytes: 1024 * 1024 * 1024,
  maxPatternFills: 200,
  maxOperators: 1_500_000,
};

/**
 * pdf.js draws each pattern fill through scratch canvases, synchronously: a page with hundreds of them can
 * grow the process by gigabytes before any timer runs. Such pages (and pages with huge operator lists) are
 * refused before rendering. The operator list is cached by pdf.js, so the check costs nothing extra.
 */
const checkRenderable = async (page: PdfPage, budget: RenderBudget): Promise<void> => {
  const list = await page.getOperatorList({ intent: 'display' });
  const { OPS } = await loadPdfJs();
  let patterns = 0;
  for (const fn of list.fnArray)
    if (fn === OPS.setFillColorN || fn === OPS.setStrokeColorN || fn === OPS.shadingFill) patterns++;
  if (patterns > budget.maxPatternFills || list.fnArray.length > budget.maxOperators) {
    throw new ExtractionError(
      'resource_limit',
      `Page ${page.pageNumber} is too complex to render safely (${list.fnArray.length} operators, ${patterns} pattern fills).`,
      { pageNumber: page.pageNumber },
    );
  }
};

/** Renders `box` (display points) of the page at `dpi`, scaled down to stay within `maxPixels`. */
export const renderRegion = async (
  page: PdfPage,
  box: Box,
  dpi: number,
  maxPixels: number,
  budget: RenderBudget = DEFAULT_BUDGET,
): Promise<RenderedRegion> => {
  const w = Math.max(1, box.x1 - box.x0);
  const h = Math.max(1, box.y1 - box.y0);
  let scale = dpi / 72;
  if (w * h * scale * scale > maxPixels) scale = Math.sqrt(maxPixels / (w * h));
  const pw = Math.max(1, Math.round(w * scale));
  const ph = Math.max(1, Math.round(h * scale));
  await checkRenderable(page, budget);
  const canvas = createCanvas(pw, ph);
  const context = canvas.getContext('2d');
  context.fillStyle = '#ffffff';
  context.fillRect(0, 0, pw, ph);
  const viewport = page.getViewport({ scale, offsetX: -box.x0 * scale, offsetY: -box.y0 * scale });
  try {
    // pdf.js types expect DOM canvases; @napi-rs/canvas implements the same 2D API.
    const params = { canvas, canvasContext: context, viewport, background: '#ffffff' };
    const task = page.render(params as unknown as Parameters<PdfPage['render']>[0]);
    // pdf.js renders in slices and yields between them, so a watchdog can cancel a render that runs too
    // long or makes the process grow too much (some vector-heavy pages allocate scratch canvases unboundedly).
    const startRss = process.memoryUsage().rss;
    let stopped: ExtractionError | null = null;
    const started = Date.now();
    const watchdog = setInterval(() => {
      if (Date.now() - started > budget.timeoutMs) {
        stopped = new ExtractionError(
          'page_timeout',
          `Rendering page ${page.pageNumber} took more than ${budget.timeoutMs} ms.`,
        );
      } else if (process.memoryUsage().rss - startRss > budget.maxGrowthBytes) {
        stopped = new ExtractionError(
          'resource_limit',
          `Rendering page ${page.pageNumber} exceeded its memory budget.`,
        );
      }
      if (stopped) task.cancel();
    }, 100);
    try {
      await task.promise;
    } finally {
      clearInterval(watchdog);
    }
    if (stopped) throw stopped;
  } catch (error) {
    if (error instanceof ExtractionError) throw error;
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
