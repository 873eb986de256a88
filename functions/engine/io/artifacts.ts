/**
 * Artifacts: PNG crops of regions, overlay PNGs of sheets with every region drawn, PDFs of spec sections.
 */
import { ExtractionError } from '../errors.ts';
import { clampBox, fromDisplayBox } from '../geometry.ts';
import { type ExtractionLimits, resolveLimits } from '../limits.ts';
import type { DisplayBox, Region } from '../model.ts';
import { openPdfiumFile } from './pdf.ts';
import type { PdfiumDocument, PdfiumPage } from './pdfium.ts';
import { encodePng } from './png.ts';
import { addRegionMarks, type Rgb } from './region-marks.ts';
import { renderPdfiumPixels, renderScale } from './render.ts';

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
  return encodePng(renderPdfiumPixels(page, clamped, dpi, maxCanvasPixels));
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

/** The whole page rendered at `dpi` within the pixel budget. */
const renderWholePage = (page: PdfiumPage, dpi: number, maxCanvasPixels: number) => {
  const { geometry } = page;
  return renderPdfiumPixels(
    page,
    { x0: 0, y0: 0, x1: geometry.width, y1: geometry.height },
    dpi,
    maxCanvasPixels,
  );
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
      const { geometry } = page;
      const rendered = renderWholePage(page, dpi, resolved.maxCanvasPixels);
      const scale = rendered.scale;
      for (const index of indices) {
        const box = clampBox(
          fromDisplayBox((crops[index] as { box: DisplayBox }).box),
          geometry.width,
          geometry.height,
        );
        const x0 = Math.floor(box.x0 * scale);
        const y0 = Math.floor(box.y0 * scale);
        const x1 = Math.min(rendered.width, Math.ceil(box.x1 * scale));
        const y1 = Math.min(rendered.height, Math.ceil(box.y1 * scale));
        if (x1 - x0 < 1 || y1 - y0 < 1) continue;
        results[index] = await encodePng(rendered, { left: x0, top: y0, width: x1 - x0, height: y1 - y0 });
      }
    } catch {
      // This page cannot be rendered (resource limits): its crops stay null; other pages go on.
    } finally {
      page?.close();
    }
  }
  return results;
};

const COLORS: Record<string, Rgb> = {
  titleBlock: [0xd6, 0x27, 0x28],
  view: [0x1f, 0x77, 0xb4],
  generalNotes: [0x2c, 0xa0, 0x2c],
  notes: [0x2c, 0xa0, 0x2c],
  keynotes: [0x17, 0xbe, 0xcf],
  legend: [0x94, 0x67, 0xbd],
  abbreviations: [0x8c, 0x56, 0x4b],
  schedule: [0xff, 0x7f, 0x0e],
  revisionBlock: [0xe3, 0x77, 0xc2],
  stamp: [0x7f, 0x7f, 0x7f],
  sheetIndex: [0xbc, 0xbd, 0x22],
};
const BLACK: Rgb = [0, 0, 0];

/** The page with every region's frame (its title's dashed) and label, drawn by PDFium with the page. */
const drawOverlay = async (
  page: PdfiumPage,
  regions: readonly Pick<Region, 'regionType' | 'label' | 'displayBox' | 'titleDisplayBox'>[],
  dpi: number,
  resolved: ExtractionLimits,
): Promise<Uint8Array> => {
  const { geometry } = page;
  // The scale the page is rendered at (the pixel budget may lower it), so frames and labels keep their pixel size.
  const scale = renderScale(
    { x0: 0, y0: 0, x1: geometry.width, y1: geometry.height },
    dpi,
    resolved.maxCanvasPixels,
  );
  addRegionMarks(
    page,
    regions.flatMap((region) => {
      const color = COLORS[region.regionType] ?? BLACK;
      const label = `${region.regionType}: ${region.label}`.slice(0, 80);
      return [
        { box: fromDisplayBox(region.displayBox), color, label },
        ...(region.titleDisplayBox
          ? [{ box: fromDisplayBox(region.titleDisplayBox), color, dashed: true }]
          : []),
      ];
    }),
    scale,
    { strokePx: 2, fontPx: Math.max(11, Math.round(9 * scale * 1.5)) },
  );
  return encodePng(renderWholePage(page, dpi, resolved.maxCanvasPixels));
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
