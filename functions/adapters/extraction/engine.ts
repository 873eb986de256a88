import { PDFDocument } from 'pdf-lib';
import { assembleDocument, extractPages, renderRegionCrops } from '../../core/extraction/index.ts';
import type { Extractor } from '../../core/pipeline/steps.ts';

/** The extraction engine (functions/core/extraction) behind the pipeline's Extractor port. */
export const engineExtractor: Extractor = {
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
