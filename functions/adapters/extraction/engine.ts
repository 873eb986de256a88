import { PDFDocument } from 'pdf-lib';
import { assembleDocument, extractPages, renderRegionCrops } from '../../core/extraction/index.ts';
import type { Extractor, PdfInspection } from '../../core/pipeline/ports.ts';

/** Larger than legal paper on both sides: a drawing sheet. */
function isDrawingSized(size: { width: number; height: number }): boolean {
  return (
    Math.min(size.width, size.height) > 8.5 * 72 * 1.05 && Math.max(size.width, size.height) > 14 * 72 * 1.05
  );
}

/**
 * The extraction engine (functions/core/extraction) behind the pipeline's Extractor port, and the
 * pipeline's only other PDF operations (inspection, cutting section PDFs): the one PDF adapter
 * outside the engine.
 */
export const engineExtractor: Extractor = {
  async inspect(bytes): Promise<PdfInspection> {
    const head = Buffer.from(bytes.subarray(0, 1024)).toString('latin1');
    if (!head.includes('%PDF-')) return { kind: 'not_pdf' };
    try {
      const pdf = await PDFDocument.load(bytes, { updateMetadata: false, throwOnInvalidObject: false });
      const pageCount = pdf.getPageCount();
      const largePages = pdf.getPages().filter((page) => isDrawingSized(page.getSize())).length;
      return { kind: 'pdf', pageCount, largePages };
    } catch (error) {
      if ((error as Error).name === 'EncryptedPDFError' || /encrypt/i.test((error as Error).message)) {
        return { kind: 'encrypted' };
      }
      return { kind: 'malformed', detail: (error as Error).message.slice(0, 200) };
    }
  },
  async extractPages(bytes, options) {
    return extractPages(bytes, {
      pages: options.pages,
      fileName: options.fileName,
      ...(options.classification ? { classification: options.classification } : {}),
    });
  },
  assemble(pages, options) {
    return assembleDocument(pages, {
      pageCount: options.pageCount,
      fileName: options.fileName,
      ...(options.classification ? { classification: options.classification } : {}),
    });
  },
  async regionCrops(bytes, regions) {
    return renderRegionCrops(
      bytes,
      regions.map((region) => ({ pageNumber: region.pageNumber, box: region.box })),
    );
  },
  async sectionPdfs(bytes, ranges) {
    if (ranges.length === 0) return [];
    // One parse of the source for every section (a spec book has about a hundred).
    const source = await PDFDocument.load(bytes, { updateMetadata: false, ignoreEncryption: false });
    const pdfs: (Uint8Array | null)[] = [];
    for (const range of ranges) {
      try {
        const section = await PDFDocument.create();
        const indices = Array.from(
          { length: range.to - range.from + 1 },
          (_, offset) => range.from - 1 + offset,
        );
        for (const page of await section.copyPages(source, indices)) section.addPage(page);
        pdfs.push(await section.save());
      } catch {
        pdfs.push(null);
      }
    }
    return pdfs;
  },
};
