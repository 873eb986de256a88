/**
 * Artifacts: PNG crops of regions, overlay PNGs of sheets with every region drawn, PDFs of spec sections.
 */
import { createCanvas } from '@napi-rs/canvas';
import { ExtractionError } from './errors.ts';
import { clampBox, fromDisplayBox } from './geometry.ts';
import { type ExtractionLimits, resolveLimits } from './limits.ts';
import type { DisplayBox, Region } from './model.ts';
import { openPdf, type PdfDocument, type PdfPage, pageGeometry } from './pdf.ts';
import { renderRegion } from './render.ts';

/** PNG of `box` (display points) on an open page, clamped to the page, at `dpi` within the pixel budget. */
const cropPng = async (
  page: PdfPage,
  box: DisplayBox,
  dpi: number,
  maxCanvasPixels: number,
): Promise<Uint8Array> => {
  const g = pageGeometry(page);
  const clamped = clampBox(fromDisplayBox(box), g.width, g.height);
  if (clamped.x1 - clamped.x0 < 1 || clamped.y1 - clamped.y0 < 1) {
    throw new ExtractionError('invalid_page_range', 'The crop box lies outside the page.');
  }
  const rendered = await renderRegion(page, clamped, dpi, maxCanvasPixels);
  return new Uint8Array(await rendered.canvas.encode('png'));
};

const withPage = async <T>(
  bytes: Uint8Array,
  pageNumber: number,
  limits: Partial<ExtractionLimits> | undefined,
  fn: (doc: PdfDocument, page: PdfPage, resolved: ExtractionLimits) => Promise<T>,
): Promise<T> => {
  const resolved = resolveLimits(limits);
  const { doc, pageCount } = await openPdf(bytes, resolved);
  try {
    if (!Number.isInteger(pageNumber) || pageNumber < 1 || pageNumber > pageCount) {
      throw new ExtractionError('invalid_page_range', `Page ${pageNumber} is not in 1-${pageCount}.`);
    }
    const page = await doc.getPage(pageNumber);
    try {
      return await fn(doc, page, resolved);
    } finally {
      page.cleanup();
    }
  } finally {
    await doc.destroy();
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
  withPage(bytes, pageNumber, limits, (_doc, page, resolved) =>
    cropPng(page, box, dpi, resolved.maxCanvasPixels),
  );

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
  const { doc } = await openPdf(bytes, resolved);
  try {
    return await cropsOfOpenDocument(doc, crops, dpi, resolved);
  } finally {
    await doc.destroy();
  }
};

/** The whole page rendered at `dpi` within the pixel budget, with the page's geometry. */
const renderWholePage = async (page: PdfPage, dpi: number, maxCanvasPixels: number) => {
  const g = pageGeometry(page);
  const rendered = await renderRegion(
    page,
    { x0: 0, y0: 0, x1: g.width, y1: g.height },
    dpi,
    maxCanvasPixels,
  );
  return { g, rendered };
};

/** `renderRegionCrops` on a document already open (a page extractor renders its pages' crops with it). */
export const cropsOfOpenDocument = async (
  doc: PdfDocument,
  crops: readonly { pageNumber: number; box: DisplayBox }[],
  dpi: number,
  resolved: ExtractionLimits,
): Promise<(Uint8Array | null)[]> => {
  const pageCount = doc.numPages;
  const results: (Uint8Array | null)[] = crops.map(() => null);
  const byPage = new Map<number, number[]>();
  crops.forEach((crop, index) => {
    if (Number.isInteger(crop.pageNumber) && crop.pageNumber >= 1 && crop.pageNumber <= pageCount) {
      byPage.set(crop.pageNumber, [...(byPage.get(crop.pageNumber) ?? []), index]);
    }
  });
  for (const [pageNumber, indices] of byPage) {
    const page = await doc.getPage(pageNumber);
    try {
      const { g, rendered } = await renderWholePage(page, dpi, resolved.maxCanvasPixels);
      const s = rendered.scale;
      for (const index of indices) {
        const b = fromDisplayBox((crops[index] as { box: DisplayBox }).box);
        const x0 = Math.max(0, Math.floor(Math.min(g.width, b.x0) * s));
        const y0 = Math.max(0, Math.floor(Math.min(g.height, b.y0) * s));
        const x1 = Math.min(rendered.canvas.width, Math.ceil(Math.max(0, b.x1) * s));
        const y1 = Math.min(rendered.canvas.height, Math.ceil(Math.max(0, b.y1) * s));
        if (x1 - x0 < 1 || y1 - y0 < 1) continue;
        const crop = createCanvas(x1 - x0, y1 - y0);
        crop.getContext('2d').drawImage(rendered.canvas, x0, y0, x1 - x0, y1 - y0, 0, 0, x1 - x0, y1 - y0);
        results[index] = new Uint8Array(await crop.encode('png'));
      }
    } catch {
      // This page cannot be rendered (resource limits): its crops stay null; other pages go on.
    } finally {
      page.cleanup();
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
  page: PdfPage,
  regions: readonly Pick<Region, 'regionType' | 'label' | 'displayBox' | 'titleDisplayBox'>[],
  dpi: number,
  resolved: ExtractionLimits,
): Promise<Uint8Array> => {
  const { rendered } = await renderWholePage(page, dpi, resolved.maxCanvasPixels);
  const ctx = rendered.canvas.getContext('2d');
  const s = rendered.scale;
  const fontPx = Math.max(11, Math.round(9 * s * 1.5));
  ctx.font = `bold ${fontPx}px sans-serif`;
  ctx.textBaseline = 'bottom';
  for (const r of regions) {
    const color = COLORS[r.regionType] ?? '#000000';
    const b = r.displayBox;
    ctx.strokeStyle = color;
    ctx.lineWidth = 2;
    ctx.strokeRect(b.left * s, b.top * s, (b.right - b.left) * s, (b.bottom - b.top) * s);
    if (r.titleDisplayBox) {
      const t = r.titleDisplayBox;
      ctx.setLineDash([4, 3]);
      ctx.strokeRect(t.left * s, t.top * s, (t.right - t.left) * s, (t.bottom - t.top) * s);
      ctx.setLineDash([]);
    }
    const label = `${r.regionType}: ${r.label}`.slice(0, 80);
    const tw = ctx.measureText(label).width;
    const y = Math.max(fontPx + 2, b.top * s);
    ctx.fillStyle = 'rgba(255,255,255,0.8)';
    ctx.fillRect(b.left * s, y - fontPx - 2, tw + 6, fontPx + 4);
    ctx.fillStyle = color;
    ctx.fillText(label, b.left * s + 3, y);
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
  withPage(bytes, pageNumber, limits, (_doc, page, resolved) => drawOverlay(page, regions, dpi, resolved));

/**
 * Opens the PDF once for many crops and overlays (the CLI writes one per region); close() when done.
 */
export const openArtifactRenderer = async (bytes: Uint8Array, limits?: Partial<ExtractionLimits>) => {
  const resolved = resolveLimits(limits);
  const { doc, pageCount } = await openPdf(bytes, resolved);
  const onPage = async <T>(pageNumber: number, fn: (page: PdfPage) => Promise<T>): Promise<T> => {
    if (!Number.isInteger(pageNumber) || pageNumber < 1 || pageNumber > pageCount) {
      throw new ExtractionError('invalid_page_range', `Page ${pageNumber} is not in 1-${pageCount}.`);
    }
    const page = await doc.getPage(pageNumber);
    try {
      return await fn(page);
    } finally {
      page.cleanup();
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
    close: (): Promise<void> => doc.destroy(),
  };
};
