/**
 * PDFium compiled to WebAssembly (`@embedpdf/pdfium`): the module (one per thread), documents and pages.
 *
 * The wasm heap is the module's linear memory, capped at 2 GB and never given back to the process: a
 * document's bytes, its parsed objects and every bitmap live there. So documents and pages are closed as
 * soon as they are read, and bitmaps freed as soon as they are copied out (see render.ts).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { init, type WrappedPdfiumModule } from '@embedpdf/pdfium';
import { ExtractionError } from '../errors.ts';
import type { Matrix } from '../geometry.ts';

export type Pdfium = WrappedPdfiumModule;

/** The module's views of its heap (replaced when the heap grows: read them through `heapOf` each time). */
export interface Heap {
  HEAPU8: Uint8Array;
  HEAPU16: Uint16Array;
  HEAP32: Int32Array;
  HEAPU32: Uint32Array;
  HEAPF32: Float32Array;
  HEAPF64: Float64Array;
}
// The package's types leave out the Emscripten heap views its module has.
export const heapOf = (pdfium: Pdfium): Heap => pdfium.pdfium as unknown as Heap;

const require = createRequire(import.meta.url);

let modulePromise: Promise<Pdfium> | undefined;

/** The thread's PDFium module, compiled and initialized on first use (about 70 ms). */
export const loadPdfium = (): Promise<Pdfium> => {
  modulePromise ??= (async () => {
    const wasmBinary = readFileSync(require.resolve('@embedpdf/pdfium/pdfium.wasm'));
    // The package types the Emscripten overrides as a browser module; a wasm binary is what it reads.
    const pdfium = await init({ wasmBinary } as never);
    pdfium.PDFiumExt_Init();
    return pdfium;
  })();
  return modulePromise;
};

/**
 * PDFium's exported C functions called as they are, without the wrapper's per-call argument conversion and
 * checks: the word builder makes several calls a character (tens of thousands on a page). Only for functions
 * whose arguments and results are all numbers (booleans come back as 0 or 1).
 */
export type RawExports = Record<string, (...args: number[]) => number>;
const raws = new WeakMap<Pdfium, RawExports>();
export const rawExports = (pdfium: Pdfium): RawExports => {
  let raw = raws.get(pdfium);
  if (!raw) {
    raw = pdfium.pdfium.wasmExports as unknown as RawExports;
    raws.set(pdfium, raw);
  }
  return raw;
};

/** FPDF_GetLastError codes (fpdfview.h). */
const FPDF_ERR_PASSWORD = 4;
const FPDF_ERR_SECURITY = 5;

/** An affine matrix [a, b, c, d, e, f]: (x, y) -> (a x + c y + e, b x + d y + f). */

/** Displayed page geometry (after /Rotate, inside the CropBox; points, origin top-left, y down). */
export interface PdfiumPageGeometry {
  width: number;
  height: number;
  /** /Rotate in degrees (0, 90, 180, 270). */
  rotation: number;
  /** PDF user space -> display space. */
  transform: Matrix;
}

/** A scratch area on the wasm heap for out-parameters (doubles, floats, ints), reused by every call. */
export interface Scratch {
  ptr: number;
  f64: (index: number) => number;
  f32: (index: number) => number;
}

const SCRATCH_BYTES = 256;
const scratches = new WeakMap<Pdfium, Scratch>();
export const scratchOf = (pdfium: Pdfium): Scratch => {
  let scratch = scratches.get(pdfium);
  if (!scratch) {
    const ptr = pdfium.pdfium.wasmExports.malloc(SCRATCH_BYTES);
    // The heap views are replaced when memory grows: read through the module each time.
    scratch = {
      ptr,
      f64: (index) => heapOf(pdfium).HEAPF64[ptr / 8 + index] ?? 0,
      f32: (index) => heapOf(pdfium).HEAPF32[ptr / 4 + index] ?? 0,
    };
    scratches.set(pdfium, scratch);
  }
  return scratch;
};

/** One open page; `close()` frees it (its text page too). */
export class PdfiumPage {
  readonly pdfium: Pdfium;
  readonly handle: number;
  /** The document the page belongs to (fonts and new page objects are created in it). */
  readonly documentHandle: number;
  readonly pageNumber: number;
  readonly geometry: PdfiumPageGeometry;
  #textPage = 0;

  constructor(pdfium: Pdfium, handle: number, documentHandle: number, pageNumber: number) {
    this.pdfium = pdfium;
    this.handle = handle;
    this.documentHandle = documentHandle;
    this.pageNumber = pageNumber;
    this.geometry = displayGeometry(pdfium, handle);
  }

  /** PDFium's text page of this page (FPDFText_LoadPage), loaded once. */
  textPage(): number {
    if (!this.#textPage) this.#textPage = this.pdfium.FPDFText_LoadPage(this.handle);
    return this.#textPage;
  }

  close(): void {
    if (this.#textPage) this.pdfium.FPDFText_ClosePage(this.#textPage);
    this.#textPage = 0;
    this.pdfium.FPDF_ClosePage(this.handle);
  }
}

/** One open document: its bytes are on the wasm heap until `close()`. */
export class PdfiumDocument {
  readonly pdfium: Pdfium;
  readonly handle: number;
  readonly pageCount: number;
  readonly #bytesPtr: number;
  #closed = false;

  private constructor(pdfium: Pdfium, handle: number, bytesPtr: number, pageCount: number) {
    this.pdfium = pdfium;
    this.handle = handle;
    this.#bytesPtr = bytesPtr;
    this.pageCount = pageCount;
  }

  /** Opens the bytes; a file PDFium cannot open becomes an ExtractionError with a code. */
  static async open(bytes: Uint8Array): Promise<PdfiumDocument> {
    const pdfium = await loadPdfium();
    const ptr = pdfium.pdfium.wasmExports.malloc(bytes.byteLength);
    if (!ptr) throw new ExtractionError('resource_limit', 'The PDF does not fit in the PDF reader’s memory.');
    heapOf(pdfium).HEAPU8.set(bytes, ptr);
    const handle = pdfium.FPDF_LoadMemDocument(ptr, bytes.byteLength, '');
    if (!handle) {
      const code = pdfium.FPDF_GetLastError();
      pdfium.pdfium.wasmExports.free(ptr);
      if (code === FPDF_ERR_PASSWORD || code === FPDF_ERR_SECURITY)
        throw new ExtractionError('pdf_encrypted', 'The PDF is encrypted with a password.');
      throw new ExtractionError('pdf_malformed', `The PDF cannot be parsed (PDFium error ${code}).`);
    }
    return new PdfiumDocument(pdfium, handle, ptr, pdfium.FPDF_GetPageCount(handle));
  }

  /** Page `pageNumber` (1-based); the caller closes it. */
  page(pageNumber: number): PdfiumPage {
    if (this.#closed) throw new Error('The document is closed.');
    const handle = this.pdfium.FPDF_LoadPage(this.handle, pageNumber - 1);
    if (!handle) {
      throw new ExtractionError('pdf_malformed', `Page ${pageNumber} cannot be read.`, { pageNumber });
    }
    return new PdfiumPage(this.pdfium, handle, this.handle, pageNumber);
  }

  /** Whether `close()` has run. */
  get closed(): boolean {
    return this.#closed;
  }

  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.pdfium.FPDF_CloseDocument(this.handle);
    this.pdfium.pdfium.wasmExports.free(this.#bytesPtr);
  }
}

/** Device units per point used to read the page matrix back from FPDF_PageToDevice (which rounds to pixels). */
const PROBE_SCALE = 1000;

/**
 * The page's user space -> display space matrix, as PDFium draws the page: FPDF_PageToDevice applies the
 * page's own box (CropBox within MediaBox) and /Rotate. Read back at 1000 device units a point, so its
 * rounding to whole units is a thousandth of a point.
 */
const displayGeometry = (pdfium: Pdfium, page: number): PdfiumPageGeometry => {
  const width = pdfium.FPDF_GetPageWidthF(page);
  const height = pdfium.FPDF_GetPageHeightF(page);
  const rotation = (((pdfium.FPDFPage_GetRotation(page) % 4) + 4) % 4) * 90;
  const scratch = scratchOf(pdfium);
  const sizeX = Math.round(width * PROBE_SCALE);
  const sizeY = Math.round(height * PROBE_SCALE);
  const toDevice = (x: number, y: number): [number, number] => {
    pdfium.FPDF_PageToDevice(page, 0, 0, sizeX, sizeY, 0, x, y, scratch.ptr, scratch.ptr + 4);
    const heap = heapOf(pdfium).HEAP32;
    return [(heap[scratch.ptr / 4] ?? 0) / PROBE_SCALE, (heap[scratch.ptr / 4 + 1] ?? 0) / PROBE_SCALE];
  };
  const [e, f] = toDevice(0, 0);
  const [ax, ay] = toDevice(1000, 0);
  const [cx, cy] = toDevice(0, 1000);
  // The linear part is a quarter turn with a flip: its entries are -1, 0 or 1 (a page scale of 1).
  const unit = (value: number): number => Math.round(value / 1000);
  return {
    width,
    height,
    rotation,
    transform: [unit(ax - e), unit(ay - f), unit(cx - e), unit(cy - f), e, f],
  };
};
