import { describe, expect, it } from 'vitest';
import { emptyNormalizedData } from '../../../functions/engine/assembly/normalize.ts';
import { resolveReferenceTargets } from '../../../functions/engine/assembly/reference-targets.ts';
import type { Region, Sheet, SheetReference } from '../../../functions/engine/model.ts';
import { sheetFixture } from './fixtures.ts';

const reference = (detail: string, sheet: string): SheetReference => ({
  text: `${detail}/${sheet}`,
  detail,
  sheet,
  sheetNormalized: sheet,
  displayBox: { left: 10, top: 10, right: 40, bottom: 30 },
});

const view = (pageNumber: number, viewNumber: string, references: SheetReference[] = []): Region => ({
  regionId: `p${pageNumber}-view-${viewNumber}`,
  pageNumber,
  sheetNumber: null,
  label: `${viewNumber} VIEW`,
  regionType: 'view',
  drawingType: null,
  text: '',
  displayBox: { left: 0, top: 0, right: 100, bottom: 100 },
  titleDisplayBox: null,
  textSource: 'textLayer',
  ocrConfidence: null,
  normalizedData: { ...emptyNormalizedData(), viewNumber, viewTitle: 'VIEW', sheetReferences: references },
});

const sheet = (pageNumber: number, number: string, regions: Region[]): Sheet =>
  sheetFixture(regions, {
    pageNumber,
    sheetNumber: number,
    sheetNumberNormalized: number,
    textSource: 'textLayer',
    confidence: 1,
  });

describe('reference targets within a file', () => {
  it('resolves to the sheet and its numbered view, and keeps references to sheets not in the file', () => {
    // Prepare: A101 calls out view 2 on A-200 (printed without the hyphen), view 9 on A-200, and 5/S-501.
    const sheets = [
      sheet(1, 'A101', [
        view(1, '1', [reference('2', 'A200'), reference('9', 'A200'), reference('5', 'S-501')]),
      ]),
      sheet(2, 'A-200', [view(2, '1'), view(2, '2')]),
    ];
    // Act
    const [first] = resolveReferenceTargets(sheets);
    // Assess
    const targets = first?.regions[0]?.normalizedData.sheetReferences.map((r) => [r.text, r.target]);
    expect(targets).toEqual([
      ['2/A200', { pageNumber: 2, regionId: 'p2-view-2' }],
      ['9/A200', { pageNumber: 2, regionId: null }],
      ['5/S-501', null],
    ]);
  });
});
