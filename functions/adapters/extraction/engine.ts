import * as engine from '../../core/extraction/index.ts';
import { assembleDocument, extractPages } from '../../core/extraction/index.ts';
import type { Extractor } from '../../core/pipeline/steps.ts';

/** The extraction engine (functions/core/extraction) behind the pipeline's Extractor port. */
interface ArtifactFunctions {
  renderRegionCrop?: (
    bytes: Uint8Array,
    pageNumber: number,
    box: { left: number; top: number; right: number; bottom: number },
    dpi?: number,
  ) => Promise<Uint8Array>;
  buildSectionPdf?: (bytes: Uint8Array, pageStart: number, pageEnd: number) => Promise<Uint8Array>;
}

const artifacts = engine as unknown as ArtifactFunctions;

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
  async regionCrop(bytes, pageNumber, box) {
    return artifacts.renderRegionCrop ? artifacts.renderRegionCrop(bytes, pageNumber, box, 110) : null;
  },
  async sectionPdf(bytes, from, to) {
    if (!artifacts.buildSectionPdf) throw new Error('The engine does not build section PDFs');
    return artifacts.buildSectionPdf(bytes, from, to);
  },
};
