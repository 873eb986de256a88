import type { Extractor } from '../../core/pipeline/ports.ts';
import {
  assembleDocument,
  buildSectionPdfs,
  extractPages,
  inspectPdf,
  openPageExtractor,
  renderRegionCrops,
} from '../../engine/index.ts';

/**
 * The extraction engine (functions/engine) behind the pipeline's Extractor port: every PDF operation
 * of the pipeline (inspection, extraction, crops, section PDFs) goes through the engine, which alone loads PDFs.
 */
export const engineExtractor: Extractor = {
  inspect: (bytes) => inspectPdf(bytes),
  async extractPages(bytes, options) {
    return extractPages(bytes, {
      pages: options.pages,
      fileName: options.fileName,
      ...(options.classification ? { classification: options.classification } : {}),
    });
  },
  openPages(bytes, options) {
    return openPageExtractor(bytes, {
      // A warm function's next batch reuses the open file and the OCR worker.
      keepWarm: true,
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
  sectionPdfs: (bytes, ranges) => buildSectionPdfs(bytes, ranges),
};
