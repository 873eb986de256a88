/**
 * Caps that keep one file from taking unbounded time or memory. All can be overridden per call. The
 * budgets (`fileTimeoutMs`, `maxOcrPages`) run per opened file: one `extractPages` or `extractDocument`
 * call, or one `openPageExtractor` (in the pipeline, one batch task's page range).
 */
export interface ExtractionLimits {
  /** Refuse files larger than this many bytes. */
  maxFileBytes: number;
  /** Refuse files with more pages than this (the pipeline's inspection refuses them first, with the same number). */
  maxPages: number;
  /** Wall-clock budget for one page (text extraction + OCR), in ms. */
  pageTimeoutMs: number;
  /** Wall-clock budget for the whole call, in ms. */
  fileTimeoutMs: number;
  /** Most characters (PDFium's, spaces included) read from one page; beyond this the page is a `resource_limit`. */
  maxTextItemsPerPage: number;
  /** Total bytes that Flate streams may inflate to (decompression-bomb guard), and per stream. */
  maxInflatedBytes: number;
  maxInflatedBytesPerStream: number;
  /** Largest canvas (pixels) rendered for crops, overlays and OCR; renders are scaled down to fit. */
  maxCanvasPixels: number;
  /** Largest single image pdf.js will decode (pixels). */
  maxImagePixels: number;
  /**
   * Largest bilevel (1 bit per pixel) image decoded, when the file's other images are within `maxImagePixels`:
   * kept packed, such an image takes an eighth of the bytes (see bilevel-images.ts).
   */
  maxBilevelImagePixels: number;
  /**
   * OCR budget: pages OCR'd per opened file (see above; `extractDocument`'s worker threads share it), and
   * seconds per page. In the pipeline a batch task opens its page range, 25 pages (a 5,000-page file's
   * 313 at most), so this budget never binds there; the batches' time does.
   */
  maxOcrPages: number;
  ocrPageTimeoutMs: number;
}

export const DEFAULT_LIMITS: ExtractionLimits = {
  maxFileBytes: 1024 * 1024 * 1024,
  maxPages: 5000,
  pageTimeoutMs: 60_000,
  fileTimeoutMs: 60 * 60_000,
  maxTextItemsPerPage: 400_000,
  maxInflatedBytes: 4 * 1024 * 1024 * 1024,
  maxInflatedBytesPerStream: 256 * 1024 * 1024,
  maxCanvasPixels: 40_000_000,
  maxImagePixels: 100_000_000,
  maxBilevelImagePixels: 800_000_000,
  maxOcrPages: 500,
  ocrPageTimeoutMs: 90_000,
};

export const resolveLimits = (overrides?: Partial<ExtractionLimits>): ExtractionLimits => ({
  ...DEFAULT_LIMITS,
  ...overrides,
});
