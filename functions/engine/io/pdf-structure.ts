/**
 * The PDF's structure without rendering (pdf-lib): what the pipeline checks before extraction (page count,
 * drawing-sized pages, encryption) and the section PDFs cut from the source. The one place pdf-lib loads a file.
 */
import { ParseSpeeds, PDFDict, PDFDocument, PDFName, PDFStream } from 'pdf-lib';
import { ExtractionError } from '../errors.ts';

export type PdfInspection =
  | {
      kind: 'pdf';
      pageCount: number;
      largePages: number;
      /** Pages that print no text (no font in their resources): scans and outlined sheets, read by OCR. */
      pagesWithoutText: number[];
    }
  | { kind: 'not_pdf' }
  | { kind: 'encrypted' }
  | { kind: 'malformed'; detail: string };

export interface PageRange {
  from: number;
  to: number;
}

/** Larger than legal paper on both sides (5 % tolerance): a drawing sheet. */
const isDrawingSized = (size: { width: number; height: number }): boolean =>
  Math.min(size.width, size.height) > 8.5 * 72 * 1.05 && Math.max(size.width, size.height) > 14 * 72 * 1.05;

const isEncryptionError = (error: unknown): boolean =>
  (error as Error).name === 'EncryptedPDFError' || /encrypt/i.test((error as Error).message ?? '');

/** Forms nested deeper than this are not looked into (a page's text is rarely more than two forms down). */
const FORM_DEPTH = 3;

/**
 * Whether a resource dictionary names a font, its own or one of its forms' (text drawn inside a form
 * XObject uses the form's fonts). A structural guess, for scheduling only: a font that draws nothing
 * still counts.
 */
const hasFont = (resources: PDFDict | undefined, depth: number, seen = new Set<PDFDict>()): boolean => {
  if (!resources || seen.has(resources)) return false;
  seen.add(resources);
  const fonts = resources.lookupMaybe(PDFName.of('Font'), PDFDict);
  if (fonts && fonts.keys().length > 0) return true;
  if (depth === 0) return false;
  const xObjects = resources.lookupMaybe(PDFName.of('XObject'), PDFDict);
  for (const name of xObjects?.keys() ?? []) {
    const xObject = xObjects?.lookup(name);
    if (!(xObject instanceof PDFStream)) continue;
    if (xObject.dict.lookupMaybe(PDFName.of('Subtype'), PDFName) !== PDFName.of('Form')) continue;
    if (hasFont(xObject.dict.lookupMaybe(PDFName.of('Resources'), PDFDict), depth - 1, seen)) return true;
  }
  return false;
};

/** Loads the structure, or throws the ExtractionError that says why it cannot be. */
const loadStructure = async (bytes: Uint8Array): Promise<PDFDocument> => {
  try {
    // Parsed without a pause (by default pdf-lib waits for a timer every 100 objects): about 90 ms less
    // of a 10 MB book's load, on the path of every job (inspection) and of its assembly.
    return await PDFDocument.load(bytes, {
      updateMetadata: false,
      throwOnInvalidObject: false,
      parseSpeed: ParseSpeeds.Fastest,
    });
  } catch (error) {
    if (isEncryptionError(error))
      throw new ExtractionError('pdf_encrypted', 'The PDF is encrypted.', { cause: error });
    const message = (error as Error).message ?? String(error);
    throw new ExtractionError('pdf_malformed', `The PDF cannot be parsed: ${message}`, { cause: error });
  }
};

/** What the file is, before any extraction: not a PDF, encrypted, malformed, or its page count and sheets. */
export const inspectPdf = async (bytes: Uint8Array): Promise<PdfInspection> => {
  const head = Buffer.from(bytes.subarray(0, 1024)).toString('latin1');
  if (!head.includes('%PDF-')) return { kind: 'not_pdf' };
  try {
    const pdf = await loadStructure(bytes);
    const pages = pdf.getPages();
    const largePages = pages.filter((page) => isDrawingSized(page.getSize())).length;
    const pagesWithoutText = pages.flatMap((page, index) =>
      hasFont(page.node.Resources(), FORM_DEPTH) ? [] : [index + 1],
    );
    return { kind: 'pdf', pageCount: pdf.getPageCount(), largePages, pagesWithoutText };
  } catch (error) {
    if ((error as ExtractionError).code === 'pdf_encrypted') return { kind: 'encrypted' };
    return { kind: 'malformed', detail: ((error as Error).message ?? String(error)).slice(0, 200) };
  }
};

const copyRange = async (source: PDFDocument, range: PageRange): Promise<Uint8Array> => {
  const count = source.getPageCount();
  const { from, to } = range;
  if (!Number.isInteger(from) || !Number.isInteger(to) || from < 1 || to > count || to < from) {
    throw new ExtractionError('invalid_page_range', `Invalid page range ${from}-${to} for ${count} pages.`);
  }
  const out = await PDFDocument.create();
  const indices = Array.from({ length: to - from + 1 }, (_, offset) => from - 1 + offset);
  for (const page of await out.copyPages(source, indices)) out.addPage(page);
  // pdf-lib yields to the event loop every 50 objects by default (a timer each): a book's hundred
  // sections took twice as long to save, for no other work waiting in this task.
  return out.save({ objectsPerTick: Number.POSITIVE_INFINITY });
};

/** A PDF holding pages pageStart..pageEnd (1-based, inclusive) of the source, e.g. one spec section. */
export const buildSectionPdf = async (
  bytes: Uint8Array,
  pageStart: number,
  pageEnd: number,
): Promise<Uint8Array> => copyRange(await loadStructure(bytes), { from: pageStart, to: pageEnd });

/**
 * One PDF per range, the source parsed once (a spec book has about a hundred sections), each handed over
 * as soon as it is cut, so that the caller stores it while the next one is cut; null for a range that
 * cannot be copied. Throws (on the first read) the ExtractionError of a source that cannot be loaded.
 */
export async function* buildSectionPdfs(
  bytes: Uint8Array,
  ranges: readonly PageRange[],
): AsyncGenerator<Uint8Array | null> {
  if (ranges.length === 0) return;
  const source = await loadStructure(bytes);
  for (const range of ranges) {
    yield await copyRange(source, range).catch(() => null);
    // A cut is CPU work without a pause: the stores of the PDFs already cut go out in between.
    await new Promise((resolve) => setImmediate(resolve));
  }
}
