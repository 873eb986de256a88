import { describe, expect, it } from 'vitest';
import type { FacetRecord, SpecSectionRecord } from '../../../functions/core/content/model.ts';
import { fileSources } from '../../../functions/core/search/sources.ts';

const section = {
  projectId: 'prj_1',
  specificationId: 'spc_1',
  sectionNumber: '09 29 00',
  sectionTitle: 'GYPSUM BOARD',
  pageStart: 4,
  pageEnd: 6,
  pdfPath: null,
} as SpecSectionRecord;

const facet = {
  projectId: 'prj_1',
  specificationId: 'spc_1',
  facetId: 'fct_1',
  facetIndex: 2,
  facetLabel: 'PART 3 EXECUTION',
  facetText: [
    'PART 3 EXECUTION',
    '3.1 EXAMINATION',
    'A. Examine areas and substrates for compliance.',
    '3.2 INSTALLATION',
    'A. Install gypsum board with long edges perpendicular to framing.',
  ].join('\n'),
  pageStart: 5,
  pageEnd: 6,
} as FacetRecord;

/** What the extraction read on each page (with the running header every page prints). */
const PAGES: Record<number, string[]> = {
  5: [
    'GYPSUM BOARD 09 29 00 - 2',
    'PART 3 EXECUTION',
    '3.1 EXAMINATION',
    'A. Examine areas and  substrates for compliance.',
  ],
  6: [
    'GYPSUM BOARD 09 29 00 - 3',
    '3.2 INSTALLATION',
    'A. Install gypsum board with long edges perpendicular to framing.',
  ],
};

const sources = (pageLines?: (page: number) => string[]) =>
  fileSources({
    projectId: 'prj_1',
    documentId: 'doc_1',
    fileId: 'fil_1',
    fileName: 'spec.pdf',
    classification: 'specifications',
    sheetTitles: new Map(),
    regions: [],
    sections: [section],
    facets: [facet],
    documentPages: [],
    ...(pageLines ? { pageLines } : {}),
  }).filter((passage) => passage.sourceKind === 'facet');

describe("a facet's passages", () => {
  it('name the page that holds their words, not the facet range, when the page lines are known', () => {
    // Act
    const passages = sources((page) => PAGES[page] ?? []);

    // Assess
    const holding = (words: string) => passages.find((passage) => passage.text.includes(words));
    expect(holding('perpendicular to framing')).toMatchObject({ pageNumber: 6, pageEnd: 6 });
    expect(holding('substrates for compliance')).toMatchObject({ pageNumber: 5, pageEnd: 5 });
    expect(passages.map((passage) => passage.text).join('\n')).toBe(facet.facetText);
    expect(new Set(passages.map((passage) => passage.passageId)).size).toBe(passages.length);
  });

  it("span the facet's range when no page lines were given (rows stored before)", () => {
    // Act
    const passages = sources();

    // Assess
    expect(passages).toHaveLength(1);
    expect(passages[0]).toMatchObject({ pageNumber: 5, pageEnd: 6 });
  });
});
