/**
 * Artifacts: PNG crops of regions, overlay PNGs of sheets with every region drawn, PDFs of spec sections.
 */
import { ExtractionError } from '../errors.ts';
import { clampBox, fromDisplayBox } from '../geometry.ts';
import { type ExtractionLimits, resolveLimits } from '../limits.ts';
import type { DisplayBox, Region } from '../model.ts';
import { openPdfiumFile } from './pdf.ts';
import type { PdfiumDocument, PdfiumPage } from './pdfium.ts';
import { cropCanvas, renderPdfiumRegion } from './render.ts';

/** PNG of `box` (display points) on an open page, clamped to the page, at `dpi` within the pixel budget. */
const cropPng = async (
  page: PdfiumPage,
  box: DisplayBox,
  dpi: number,
  maxCanvasPixels: number,
): Promise<Uint8Array> => {
  const { geometry } = page;
  const clamped = clampBox(fromDisplayBox(box), geometry.width, geometry.height);
  if (clamped.x1 - clamped.x0 < 1 || clamped.y1 - clamped.y0 < 1) {
    throw new ExtractionError('invalid_page_range', 'The crop box lies outside the page.');
  }
  const rendered = renderPdfiumRegion(page, clamped, dpi, maxCanvasPixels);
  return new Uint8Array(await rendered.canvas.encode('png'));
};

const withPage = async <T>(
  bytes: Uint8Array,
  pageNumber: number,
  limits: Partial<ExtractionLimits> | undefined,
  fn: (page: PdfiumPage, resolved: ExtractionLimits) => Promise<T>,
): Promise<T> => {
  const resolved = resolveLimits(limits);
  const doc = await openPdfiumFile(bytes, resolved);
  try {
    const { pageCount } = doc;
    if (!Number.isInteger(pageNumber) || pageNumber < 1 || pageNumber > pageCount) {
      throw new ExtractionError('invalid_page_range', `Page ${pageNumber} is not in 1-${pageCount}.`);
    }
    const page = doc.page(pageNumber);
    try {
      return await fn(page, resolved);
    } finally {
      page.close();
    }
  } finally {
    doc.close();
  }
};

/** PNG of `box` (display points, see model.ts) on a page, at `dpi` (scaled down to the pixel budget). */
export const renderRegionCrop = async (
  bytes: Uint8Array,
  pageNumber: number,
  box: DisplayBox,
  dpi = 110,
  limits?: Partial<ExtractionLimits>,
): Promise<Uint8Array> =>
  withPage(bytes, pageNumber, limits, (page, resolved) => cropPng(page, box, dpi, resolved.maxCanvasPixels));

/**
 * PNG crops of many regions of one file: the document is opened once and each page rendered once
 * (within the pixel budget), then every region on it is cut from that render. Null where a page
 * cannot be rendered (for example over the resource limits) or a box lies outside its page.
 */
export const renderRegionCrops = async (
  bytes: Uint8Array,
  crops: readonly { pageNumber: number; box: DisplayBox }[],
  dpi = 110,
  limits?: Partial<ExtractionLimits>,
): Promise<(Uint8Array | null)[]> => {
  if (crops.length === 0) return [];
  const resolved = resolveLimits(limits);
  const doc = await openPdfiumFile(bytes, resolved);
  try {
    return await cropsOfOpenDocument(doc, crops, dpi, resolved);
  } finally {
    doc.close();
  }
};

/** The whole page rendered at `dpi` within the pixel budget, with the page's geometry. */
const renderWholePage = async (page: PdfiumPage, dpi: number, maxCanvasPixels: number) => {
  const { geometry } = page;
  const rendered = renderPdfiumRegion(
    page,
    { x0: 0, y0: 0, x1: geometry.width, y1: geometry.height },
    dpi,
    maxCanvasPixels,
  );
  return { geometry, rendered };
};

/** `renderRegionCrops` on a document already open (a page extractor renders its pages' crops with it). */
export const cropsOfOpenDocument = async (
  doc: PdfiumDocument,
  crops: readonly { pageNumber: number; box: DisplayBox }[],
  dpi: number,
  resolved: ExtractionLimits,
): Promise<(Uint8Array | null)[]> => {
  const { pageCount } = doc;
  const results: (Uint8Array | null)[] = crops.map(() => null);
  const byPage = new Map<number, number[]>();
  crops.forEach((crop, index) => {
    if (Number.isInteger(crop.pageNumber) && crop.pageNumber >= 1 && crop.pageNumber <= pageCount) {
      byPage.set(crop.pageNumber, [...(byPage.get(crop.pageNumber) ?? []), index]);
    }
  });
  for (const [pageNumber, indices] of byPage) {
    let page: PdfiumPage | null = null;
    try {
      page = doc.page(pageNumber);
      const { geometry, rendered } = await renderWholePage(page, dpi, resolved.maxCanvasPixels);
      const scale = rendered.scale;
      for (const index of indices) {
        const box = fromDisplayBox((crops[index] as { box: DisplayBox }).box);
        const x0 = Math.max(0, Math.floor(Math.min(geometry.width, box.x0) * scale));
        const y0 = Math.max(0, Math.floor(Math.min(geometry.height, box.y0) * scale));
        const x1 = Math.min(rendered.canvas.width, Math.ceil(Math.max(0, box.x1) * scale));
        const y1 = Math.min(rendered.canvas.height, Math.ceil(Math.max(0, box.y1) * scale));
        if (x1 - x0 < 1 || y1 - y0 < 1) continue;
        const crop = cropCanvas(rendered.canvas, x0, y0, x1 - x0, y1 - y0);
        results[index] = new Uint8Array(await crop.encode('png'));
      }
    } catch {
      // This page cannot be rendered (resource limits): its crops stay null; other pages go on.
    } finally {
      page?.close();
    }
  }
  return results;
};

const COLORS: Record<string, string> = {
  titleBlock: '#d62728',
  view: '#1f77b4',
  generalNotes: '#2ca02c',
  notes: '#2ca02c',
  keynotes: '#17becf',
  legend: '#9467bd',
  abbreviations: '#8c564b',
  schedule: '#ff7f0e',
  revisionBlock: '#e377c2',
  stamp: '#7f7f7f',
  sheetIndex: '#bcbd22',
};

const drawOverlay = async (
  page: PdfiumPage,
  regions: readonly Pick<Region, 'regionType' | 'label' | 'displayBox' | 'titleDisplayBox'>[],
  dpi: number,
  resolved: ExtractionLimits,
): Promise<Uint8Array> => {
  const { rendered } = await renderWholePage(page, dpi, resolved.maxCanvasPixels);
  const ctx = rendered.canvas.getContext('2d');
  const scale = rendered.scale;
  const fontPx = Math.max(11, Math.round(9 * scale * 1.5));
  ctx.font = `bold ${fontPx}px sans-serif`;
  ctx.textBaseline = 'bottom';
  for (const region of regions) {
    const color = COLORS[region.regionType] ?? '#000000';
    const box = region.displayBox;
    ctx.strokeStyle = color;
    ctx.lineWidth = 2;
    ctx.strokeRect(
      box.left * scale,
      box.top * scale,
      (box.right - box.left) * scale,
      (box.bottom - box.top) * scale,
    );
    if (region.titleDisplayBox) {
      const titleBox = region.titleDisplayBox;
      ctx.setLineDash([4, 3]);
      ctx.strokeRect(
        titleBox.left * scale,
        titleBox.top * scale,
        (titleBox.right - titleBox.left) * scale,
        (titleBox.bottom - titleBox.top) * scale,
      );
      ctx.setLineDash([]);
    }
    const label = `${region.regionType}: ${region.label}`.slice(0, 80);
    const tw = ctx.measureText(label).width;
    const y = Math.max(fontPx + 2, box.top * scale);
    ctx.fillStyle = 'rgba(255,255,255,0.8)';
    ctx.fillRect(box.left * scale, y - fontPx - 2, tw + 6, fontPx + 4);
    ctx.fillStyle = color;
    ctx.fillText(label, box.left * scale + 3, y);
  }
  return new Uint8Array(await rendered.canvas.encode('png'));
};

/** The whole page with every region's box and label drawn on it, for people checking the extraction. */
export const renderOverlay = async (
  bytes: Uint8Array,
  pageNumber: number,
  regions: readonly Pick<Region, 'regionType' | 'label' | 'displayBox' | 'titleDisplayBox'>[],
  dpi = 50,
  limits?: Partial<ExtractionLimits>,
): Promise<Uint8Array> =>
  withPage(bytes, pageNumber, limits, (page, resolved) => drawOverlay(page, regions, dpi, resolved));

/**
 * Opens the PDF once for many crops and overlays (the CLI writes one per region); close() when done.
 */
export const openArtifactRenderer = async (bytes: Uint8Array, limits?: Partial<ExtractionLimits>) => {
  const resolved = resolveLimits(limits);
  const doc = await openPdfiumFile(bytes, resolved);
  const { pageCount } = doc;
  const onPage = async <T>(pageNumber: number, fn: (page: PdfiumPage) => Promise<T>): Promise<T> => {
    if (!Number.isInteger(pageNumber) || pageNumber < 1 || pageNumber > pageCount) {
      throw new ExtractionError('invalid_page_range', `Page ${pageNumber} is not in 1-${pageCount}.`);
    }
    const page = doc.page(pageNumber);
    try {
      return await fn(page);
    } finally {
      page.close();
    }
  };
  return {
    pageCount,
    crop: (pageNumber: number, box: DisplayBox, dpi = 110): Promise<Uint8Array> =>
      onPage(pageNumber, (page) => cropPng(page, box, dpi, resolved.maxCanvasPixels)),
    overlay: (
      pageNumber: number,
      regions: readonly Pick<Region, 'regionType' | 'label' | 'displayBox' | 'titleDisplayBox'>[],
      dpi = 50,
    ): Promise<Uint8Array> => onPage(pageNumber, (page) => drawOverlay(page, regions, dpi, resolved)),
    close: async (): Promise<void> => doc.close(),
  };
};
