/**
 * Rendering part of a page to a canvas (crops, overlays, OCR input), bounded by a pixel budget. Crops, overlays
 * and the whole drawing area's OCR are drawn by PDFium (io/render.ts); the title-block OCR's renders by pdf.js
 * on @napi-rs/canvas, as they were when that OCR was tuned (see docs/extraction.md, I/O layer: PDFium's pixels differ enough for tesseract
 * to read some title blocks differently).
 */
import { type Canvas, createCanvas, ImageData } from '@napi-rs/canvas';
import type { Turn } from '../drawings/reading-frame.ts';
import { ExtractionError } from '../errors.ts';
import { type Box, type Matrix, multiply } from '../geometry.ts';
import {
  drawBilevelImage,
  largeBilevelImage,
  paintsLargeImage,
  type SampledImage,
} from './bilevel-images.ts';
import { type GroupExtent, groupExtents } from './operator-groups.ts';
import {
  drawingOperatorList,
  loadPdfJs,
  type OperatorList,
  type PageGeometry,
  type PdfJs,
  type PdfPage,
  pageGeometry,
} from './pdf.ts';
import type { PdfiumPage } from './pdfium.ts';
import { renderBox } from './pdfium-render.ts';
import { forEachPath } from './rulings.ts';

export interface RenderedRegion {
  canvas: Canvas;
  /** Pixels per point actually used (may be below the requested dpi/72 when the pixel budget applies). */
  scale: number;
  box: Box;
}

/** The `width` x `height` pixels of `source` at (`x`, `y`), on a canvas of their own (no resampling). */
export const cropCanvas = (source: Canvas, x: number, y: number, width: number, height: number): Canvas => {
  const canvas = createCanvas(width, height);
  canvas.getContext('2d').drawImage(source, x, y, width, height, 0, 0, width, height);
  return canvas;
};

/** The scale and pixel size of a render of `box` at `dpi`, scaled down to stay within `maxPixels`. */
const pixelSize = (box: Box, dpi: number, maxPixels: number): { scale: number; pw: number; ph: number } => {
  const boxWidth = Math.max(1, box.x1 - box.x0);
  const boxHeight = Math.max(1, box.y1 - box.y0);
  let scale = dpi / 72;
  if (boxWidth * boxHeight * scale * scale > maxPixels) scale = Math.sqrt(maxPixels / (boxWidth * boxHeight));
  return {
    scale,
    pw: Math.max(1, Math.round(boxWidth * scale)),
    ph: Math.max(1, Math.round(boxHeight * scale)),
  };
};

/** The pixels a point a render of `box` at `dpi` uses within `maxPixels`. */
export const renderScale = (box: Box, dpi: number, maxPixels: number): number =>
  pixelSize(box, dpi, maxPixels).scale;

/**
 * `box` (display points) of the page rendered by PDFium at `dpi`, scaled down to stay within `maxPixels`
 * (crops, overlays, the drawing area's OCR). The page is placed at whole-pixel offsets: within half a pixel of `box`.
 */
export const renderPdfiumRegion = (
  page: PdfiumPage,
  box: Box,
  dpi: number,
  maxPixels: number,
  /** `box` is in the displayed page turned clockwise by this (reading-frame.ts); the page is drawn so. */
  turn: Turn = 0,
): RenderedRegion => {
  const rendered = renderPdfiumPixels(page, box, dpi, maxPixels, turn);
  return { canvas: canvasOf(rendered), scale: rendered.scale, box };
};

/** RGBA pixels on a canvas (for drawing on them or cutting from them). */
export const canvasOf = (pixels: { data: Uint8ClampedArray; width: number; height: number }): Canvas => {
  const canvas = createCanvas(pixels.width, pixels.height);
  canvas.getContext('2d').putImageData(new ImageData(pixels.data, pixels.width, pixels.height), 0, 0);
  return canvas;
};

/**
 * `renderPdfiumRegion`'s RGBA pixels without a canvas, for a reader of the pixels themselves (a scan's rulings):
 * no copy into a canvas and back.
 */
export const renderPdfiumPixels = (
  page: PdfiumPage,
  box: Box,
  dpi: number,
  maxPixels: number,
  turn: Turn = 0,
): { data: Uint8ClampedArray; width: number; height: number; scale: number } => {
  const { scale, pw, ph } = pixelSize(box, dpi, maxPixels);
  try {
    return { data: renderBox(page, box, scale, pw, ph, turn).data, width: pw, height: ph, scale };
  } catch (error) {
    throw new ExtractionError(
      'render_failed',
      `Rendering page ${page.pageNumber} failed: ${(error as Error).message}`,
      { cause: error, pageNumber: page.pageNumber },
    );
  }
};

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
 * grow the process by gigabytes before any timer runs. Such renders (and pages with huge operator lists) are
 * refused before rendering. Only what the render draws counts: a render of part of the page leaves out the
 * paths outside it (see outsideFilter), so neither their pattern paints nor the paths themselves count (the
 * title block of a sheet of 1.5 million operators is a few thousand of them). The operator list is cached by
 * pdf.js.
 */
const checkRenderable = async (
  page: PdfPage,
  list: OperatorList,
  budget: RenderBudget,
  areas: readonly Box[],
  geometry: PageGeometry,
): Promise<void> => {
  const pdfjs = await loadPdfJs();
  const patterns = patternPaints(list, pdfjs, geometry, areas);
  const operators =
    list.fnArray.length > budget.maxOperators
      ? drawnOperators(list, pdfjs, geometry, areas)
      : list.fnArray.length;
  if (patterns > budget.maxPatternFills || operators > budget.maxOperators) {
    throw new ExtractionError(
      'resource_limit',
      `Page ${page.pageNumber} is too complex to render safely (${operators} of ${list.fnArray.length} operators drawn, ${patterns} pattern fills).`,
      { pageNumber: page.pageNumber },
    );
  }
};

/** Operators a render of `areas` draws: all of them but the painted paths wholly outside (see outsideFilter). */
const drawnOperators = (
  list: OperatorList,
  pdfjs: PdfJs,
  geometry: PageGeometry,
  areas: readonly Box[],
): number => {
  if (isWholePage(areas, geometry.width, geometry.height)) return list.fnArray.length;
  let outside = 0;
  forEachPath(list, pdfjs, geometry, (_index, _data, userBox, toDisplay) => {
    if (userBox && userBox.length >= 4 && isOutside(userBox, toDisplay, areas)) outside++;
  });
  return list.fnArray.length - outside;
};

/**
 * Pattern paints a render of `areas` draws: shading fills, and paths painted while a pattern is the fill or
 * stroke colour that reach an area (all of them when the areas are most of the page).
 */
const patternPaints = (
  list: OperatorList,
  pdfjs: PdfJs,
  geometry: PageGeometry,
  areas: readonly Box[],
): number => {
  const { OPS } = pdfjs;
  const wholePage = isWholePage(areas, geometry.width, geometry.height);
  let shadings = 0;
  let patternColors = 0;
  // Whether a pattern is the current colour at each path, followed through save/restore.
  const withPattern = new Uint8Array(list.fnArray.length);
  let fillPattern = false;
  let strokePattern = false;
  const stack: Array<[boolean, boolean]> = [];
  // Operators that set a plain (non-pattern) colour.
  const plainFill = new Set([
    OPS.setFillGray,
    OPS.setFillRGBColor,
    OPS.setFillCMYKColor,
    OPS.setFillTransparent,
  ]);
  const plainStroke = new Set([
    OPS.setStrokeGray,
    OPS.setStrokeRGBColor,
    OPS.setStrokeCMYKColor,
    OPS.setStrokeTransparent,
  ]);
  list.fnArray.forEach((operator, index) => {
    if (operator === OPS.shadingFill) shadings++;
    else if (operator === OPS.setFillColorN || operator === OPS.setStrokeColorN) patternColors++;
    if (operator === OPS.save) stack.push([fillPattern, strokePattern]);
    else if (operator === OPS.restore) [fillPattern, strokePattern] = stack.pop() ?? [false, false];
    else if (operator === OPS.setFillColorN) fillPattern = true;
    else if (operator === OPS.setStrokeColorN) strokePattern = true;
    else if (plainFill.has(operator)) fillPattern = false;
    else if (plainStroke.has(operator)) strokePattern = false;
    else if (operator === OPS.constructPath && (fillPattern || strokePattern)) withPattern[index] = 1;
  });
  if (wholePage) return shadings + patternColors;
  // Without a pattern colour no path is painted with one: no walk of the paths.
  if (patternColors === 0) return shadings;
  let painted = 0;
  forEachPath(list, pdfjs, geometry, (index, _data, userBox, toDisplay) => {
    if (withPattern[index] !== 1) return;
    if (!userBox || userBox.length < 4 || !isOutside(userBox, toDisplay, areas)) painted++;
  });
  return shadings + painted;
};

/** A user-space box, mapped to display points, lies wholly outside every one of `areas` (with a margin). */
const isOutside = (userBox: ArrayLike<number>, toDisplay: Matrix, areas: readonly Box[]): boolean => {
  // Called for every path of every render: no arrays, no spreads.
  const minX = userBox[0] ?? 0;
  const minY = userBox[1] ?? 0;
  const maxX = userBox[2] ?? 0;
  const maxY = userBox[3] ?? 0;
  const [a, b, c, d, e, f] = toDisplay;
  const x1 = a * minX + c * minY + e;
  const x2 = a * minX + c * maxY + e;
  const x3 = a * maxX + c * minY + e;
  const x4 = a * maxX + c * maxY + e;
  const y1 = b * minX + d * minY + f;
  const y2 = b * minX + d * maxY + f;
  const y3 = b * maxX + d * minY + f;
  const y4 = b * maxX + d * maxY + f;
  const left = Math.min(x1, x2, x3, x4);
  const right = Math.max(x1, x2, x3, x4);
  const top = Math.min(y1, y2, y3, y4);
  const bottom = Math.max(y1, y2, y3, y4);
  for (const box of areas) {
    if (
      right >= box.x0 - OUTSIDE_MARGIN &&
      left <= box.x1 + OUTSIDE_MARGIN &&
      bottom >= box.y0 - OUTSIDE_MARGIN &&
      top <= box.y1 + OUTSIDE_MARGIN
    )
      return false;
  }
  return true;
};

/** A display box lies wholly outside every one of `areas` (with the same margin as paths). */
const isBoxOutside = (box: Box, areas: readonly Box[]): boolean =>
  areas.every(
    (area) =>
      box.x1 < area.x0 - OUTSIDE_MARGIN ||
      box.x0 > area.x1 + OUTSIDE_MARGIN ||
      box.y1 < area.y0 - OUTSIDE_MARGIN ||
      box.y0 > area.y1 + OUTSIDE_MARGIN,
  );

/** Margin around a rendered area within which paths are still drawn (stroke widths, anti-aliasing). */
const OUTSIDE_MARGIN = 12;
/** Areas this large a fraction of the page are rendered whole (nothing much to leave out). */
const WHOLE_PAGE_SHARE = 0.6;
const isWholePage = (areas: readonly Box[], width: number, height: number): boolean =>
  areas.reduce((sum, box) => sum + (box.x1 - box.x0) * (box.y1 - box.y0), 0) >
  WHOLE_PAGE_SHARE * width * height;

/**
 * A filter of the operators a render of `areas` leaves to others or out:
 * - painted paths (pdf.js `constructPath` with a stroke or fill) whose bounding box lies wholly outside every
 *   area. pdf.js walks the page's whole operator list for every render, whatever its area; on a vector drawing
 *   that walk is most of the cost of rendering a title block. Paths that set a clip (an `endPath`, or a paint
 *   right after `clip`) are always drawn: they change what later operators draw. Renders with and without the
 *   filter are pixel-identical on every sheet of the corpus. Not for renders of most of the page.
 * - bilevel images over `maxPixels` (a large scan): pdf.js would expand them to a full-size RGBA canvas; they
 *   are collected in `sampled` with their placement and drawn by the caller from their packed bits.
 * pdf.js calls the filter for each operator in order, so it follows the current transformation (save/restore,
 * `cm`, form XObjects) of the list being drawn itself. Null when there is nothing to leave out.
 */
const renderFilter = (
  executing: () => OperatorList | undefined,
  pdfjs: PdfJs,
  page: PdfPage,
  geometry: PageGeometry,
  areas: readonly Box[],
  largeBilevel: boolean,
  maxPixels: number,
  sampled: SampledImage[],
): ((index: number) => boolean) | null => {
  const { OPS } = pdfjs;
  const leaveOutPaths = !isWholePage(areas, geometry.width, geometry.height);
  if (!leaveOutPaths && !largeBilevel) return null;
  const paints = new Set<number>([
    OPS.stroke,
    OPS.closeStroke,
    OPS.fill,
    OPS.eoFill,
    OPS.fillStroke,
    OPS.eoFillStroke,
    OPS.closeFillStroke,
    OPS.closeEOFillStroke,
  ]);
  const identity: Matrix = [1, 0, 0, 1, 0, 0];
  const base = geometry.transform as Matrix;
  let ctm = identity;
  // The page transform times the current matrix, computed again only when the matrix changed.
  let toDisplay: Matrix | null = null;
  const stack: Matrix[] = [];
  let previousOperator = -1;
  let followed = true;
  // pdf.js asks again for an operator it stopped at (a font or image not loaded yet): answer as before.
  let lastIndex = -1;
  let lastAnswer = true;
  // Save/restore groups whose whole drawing lies outside the areas are left out from save to restore.
  let groups: Map<number, GroupExtent> | null = null;
  let skipUntil = -1;
  return (index) => {
    if (index === lastIndex) return lastAnswer;
    // Inside a group left out (most operators of a title-block render of a CAD plot): nothing to follow.
    if (index <= skipUntil) return false;
    const list = executing();
    const operator = list?.fnArray[index];
    const operands = list?.argsArray[index] as unknown[] | null | undefined;
    let draw = true;
    if (list && leaveOutPaths) groups ??= groupExtents(list, pdfjs, geometry);
    const group = operator === OPS.save && followed ? groups?.get(index) : undefined;
    // Transparency groups and annotations set transforms of their own: from there on everything is drawn.
    if (operator === OPS.beginGroup || operator === OPS.beginAnnotation) followed = false;
    if (!followed) draw = true;
    else if (group?.box && isBoxOutside(group.box, areas)) {
      skipUntil = group.end;
      draw = false;
    } else if (operator === OPS.save) stack.push(ctm);
    else if (operator === OPS.restore) {
      ctm = stack.pop() ?? identity;
      toDisplay = null;
    } else if (operator === OPS.transform && operands) {
      ctm = multiply(ctm, operands as unknown as Matrix);
      toDisplay = null;
    } else if (operator === OPS.paintFormXObjectBegin && operands) {
      stack.push(ctm);
      const matrix = operands[0] as Matrix | null;
      if (matrix) ctm = multiply(ctm, matrix);
      toDisplay = null;
    } else if (operator === OPS.paintFormXObjectEnd) {
      ctm = stack.pop() ?? identity;
      toDisplay = null;
    } else if (operator === OPS.constructPath && operands && leaveOutPaths) {
      const paint = operands[0];
      const userBox = operands[2] as ArrayLike<number> | null | undefined;
      const clipping = previousOperator === OPS.clip || previousOperator === OPS.eoClip;
      if (typeof paint === 'number' && paints.has(paint) && !clipping && userBox && userBox.length >= 4) {
        toDisplay ??= multiply(base, ctm);
        draw = !isOutside(userBox, toDisplay, areas);
      }
    } else if (
      largeBilevel &&
      operands &&
      (operator === OPS.paintImageXObject || operator === OPS.paintImageMaskXObject)
    ) {
      const image = largeBilevelImage(page, operator === OPS.paintImageMaskXObject, operands, maxPixels);
      if (image) {
        sampled.push({ image, toDisplay: multiply(base, ctm) });
        draw = false;
      }
    }
    previousOperator = operator ?? -1;
    lastIndex = index;
    lastAnswer = draw;
    return draw;
  };
};

/**
 * Renders `box` (display points) of the page at `dpi`, scaled down to stay within `maxPixels`. `areas` are the
 * parts of the box the caller reads (by default the whole box): paths outside all of them are left out, and
 * only what is drawn in them counts against the budget (one render serves several strips of a sheet).
 */
export const renderRegion = async (
  page: PdfPage,
  box: Box,
  dpi: number,
  maxPixels: number,
  budget: RenderBudget = DEFAULT_BUDGET,
  areas: readonly Box[] = [box],
  /**
   * The frame `box` and `areas` are in: the displayed page (default), or the page turned by a quarter to read
   * a sheet placed sideways (reading-frame.ts's turnGeometry); the page is drawn in that frame.
   */
  geometry: PageGeometry = pageGeometry(page),
): Promise<RenderedRegion> => {
  const { scale, pw, ph } = pixelSize(box, dpi, maxPixels);
  // One walk of the page for the list (each call renders it through a filter that draws nothing).
  const list = await drawingOperatorList(page);
  await checkRenderable(page, list, budget, areas, geometry);
  // The filter reads the operator list pdf.js is drawing (that of the render task).
  let task: ReturnType<PdfPage['render']> | null = null;
  const executing = (): OperatorList | undefined =>
    (task as unknown as { _internalRenderTask?: { operatorList?: OperatorList } } | null)?._internalRenderTask
      ?.operatorList;
  const pdfjs = await loadPdfJs();
  const sampled: SampledImage[] = [];
  const largeBilevel = paintsLargeImage(list, pdfjs, maxPixels);
  const operationsFilter = process.env.NO_RENDER_FILTER
    ? null
    : renderFilter(executing, pdfjs, page, geometry, areas, largeBilevel, maxPixels, sampled);
  const canvas = createCanvas(pw, ph);
  const context = canvas.getContext('2d');
  context.fillStyle = '#ffffff';
  context.fillRect(0, 0, pw, ph);
  const viewport = page.getViewport({
    scale,
    rotation: geometry.rotation,
    offsetX: -box.x0 * scale,
    offsetY: -box.y0 * scale,
  });
  try {
    // pdf.js types expect DOM canvases; @napi-rs/canvas implements the same 2D API.
    const params = {
      canvas,
      canvasContext: context,
      viewport,
      background: '#ffffff',
      ...(operationsFilter ? { operationsFilter } : {}),
    };
    const renderTask = page.render(params as unknown as Parameters<PdfPage['render']>[0]);
    task = renderTask;
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
      if (stopped) renderTask.cancel();
    }, 100);
    try {
      await renderTask.promise;
    } finally {
      clearInterval(watchdog);
    }
    if (stopped) throw stopped;
    for (const { image, toDisplay } of sampled) drawBilevelImage(canvas, box, scale, image, toDisplay);
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
