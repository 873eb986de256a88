import { describe, expect, it } from 'vitest';
import { sheetTextOutsideRegions } from '../../../functions/core/pipeline/sheet-text.ts';
import { fileSources } from '../../../functions/core/search/sources.ts';
import type { Sheet } from '../../../functions/engine/index.ts';

const line = (text: string, x0: number, y0: number) => ({ text, x0, y0, x1: x0 + 100, y1: y0 + 10 });

const sheet = {
  pageNumber: 3,
  sheetNumber: 'C-101',
  sheetTitle: 'SITE PLAN',
  regions: [
    {
      displayBox: { left: 0, top: 0, right: 500, bottom: 300 },
      text: 'GENERAL NOTES 1. VERIFY\n2. SEE A-501',
    },
    // A view's region text is its title: the drawing's own words are not in it.
    { displayBox: { left: 500, top: 0, right: 3000, bottom: 2000 }, text: 'SITE PLAN\nSCALE: 1" = 20\'' },
  ],
} as unknown as Sheet;

describe('the text of a drawing sheet outside its regions', () => {
  it("keeps the lines no region's text holds (a view's drawing included), and names the sheet", () => {
    const lines = [line('GENERAL NOTES 1. VERIFY', 10, 10), line('WILDE AVE & BRUSSELS ST', 600, 400)];
    const pages = sheetTextOutsideRegions([sheet], (page) => (page === 3 ? lines : []));
    expect(pages).toEqual([
      {
        pageNumber: 3,
        lines: [lines[1]],
        sheet: { sheetNumber: 'C-101', sheetTitle: 'SITE PLAN' },
      },
    ]);
  });

  it('gives a sheet whose text is all in regions no page source', () => {
    expect(sheetTextOutsideRegions([sheet], () => [line('NOTES', 10, 10), line('   ', 700, 700)])).toEqual(
      [],
    );
  });

  it('becomes a page source of the sheet, labelled and filtered as a drawing sheet', () => {
    const [page] = sheetTextOutsideRegions([sheet], () => [line('WILDE AVE & BRUSSELS ST', 600, 400)]);
    const passages = fileSources({
      projectId: 'prj_1',
      documentId: 'doc_1',
      fileId: 'fil_1',
      fileName: 'civil.pdf',
      classification: 'plans',
      sheetTitles: new Map(),
      regions: [],
      sections: [],
      facets: [],
      documentPages: page ? [page] : [],
    });
    expect(passages).toHaveLength(1);
    expect(passages[0]).toMatchObject({
      sourceUri: 'service://projects/prj_1/documents/doc_1/pages/3',
      entityType: 'doc',
      label: 'C-101 · SITE PLAN · sheet text',
      // Searched by what the sheet prints, not by the label's own words.
      head: 'C-101 · SITE PLAN',
      sheetNumber: 'C-101',
      layoutType: 'drawing_sheet',
      box: { left: 600, top: 400, right: 700, bottom: 410 },
      text: 'WILDE AVE & BRUSSELS ST',
    });
  });
});
