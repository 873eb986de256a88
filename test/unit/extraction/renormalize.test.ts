import { describe, expect, it } from 'vitest';
import { emptyNormalizedData } from '../../../functions/engine/assembly/normalize.ts';
import { referenceTargets, withTargets } from '../../../functions/engine/assembly/reference-targets.ts';
import { renormalizeRegion, storedFileSheets } from '../../../functions/engine/assembly/renormalize.ts';
import { DRAWING_AREA_LABEL } from '../../../functions/engine/drawings/regions.ts';
import type { Region } from '../../../functions/engine/model.ts';

const box = { left: 100, top: 100, right: 500, bottom: 400 };

const fresh = (overrides: Partial<Region>): Region => ({
  regionId: 'p3-view-1',
  pageNumber: 3,
  sheetNumber: null,
  label: '5 ROOF EDGE',
  regionType: 'view',
  drawingType: 'detail',
  text: '',
  displayBox: box,
  titleDisplayBox: null,
  textSource: 'textLayer',
  ocrConfidence: null,
  normalizedData: {
    ...emptyNormalizedData(),
    viewNumber: '5',
    viewTitle: 'ROOF EDGE',
    scale: { text: '1/8" = 1\'-0"', ratio: 1 / 96 },
    sheetReferences: [
      { text: '3/A-501', detail: '3', sheet: 'A-501', sheetNormalized: 'A-501', displayBox: box },
    ],
  },
  ...overrides,
});

const stored = {
  regionType: 'view',
  label: '5 ROOF EDGE',
  text: 'ROOF EDGE SEE DETAIL 3/A-501 AND SECTION 07 55 00',
  sheetNumber: 'A 501',
  displayBox: box,
};

describe('normalizing a stored region again', () => {
  it('takes the data of the same region found on the page again, with the sheet number the set chose', () => {
    // Act
    const { data, from } = renormalizeRegion(stored, [
      fresh({ regionType: 'notes' }),
      fresh({ displayBox: { left: 90, top: 95, right: 505, bottom: 410 } }),
    ]);
    // Assess
    expect(from).toBe('page');
    expect(data).toMatchObject({ viewNumber: '5', viewTitle: 'ROOF EDGE', sheetNumber: 'A501' });
    expect(data.scale?.ratio).toBeCloseTo(1 / 96);
  });

  it('keeps the sheet title as the view title of a titled drawing area', () => {
    const { data } = renormalizeRegion({ ...stored, label: 'ROOF PLAN' }, [
      fresh({ label: DRAWING_AREA_LABEL, normalizedData: { ...emptyNormalizedData(), viewTitle: null } }),
    ]);
    expect(data.viewTitle).toBe('ROOF PLAN');
  });

  it('falls back to what the text says when the page has no matching region', () => {
    // Act
    const moved = renormalizeRegion(stored, [
      fresh({ displayBox: { left: 600, top: 100, right: 900, bottom: 400 } }),
    ]);
    const notes = renormalizeRegion(
      {
        ...stored,
        regionType: 'generalNotes',
        text: 'GENERAL NOTES\n1. VERIFY ALL\nDIMENSIONS\n2. SEE 4/A-201',
      },
      [],
    );
    // Assess
    expect(moved.from).toBe('text');
    expect(moved.data.viewNumber).toBeNull();
    expect(moved.data.sheetReferences.map((reference) => reference.sheetNormalized)).toEqual(['A-501']);
    expect(moved.data.specReferences.map((reference) => reference.sectionNumber)).toEqual(['07 55 00']);
    expect(notes.data.keynotes).toEqual([
      { key: '1', text: 'VERIFY ALL DIMENSIONS' },
      { key: '2', text: 'SEE 4/A-201' },
    ]);
  });

  it("resolves references against the file's stored sheets and views", () => {
    // Prepare
    const targetOf = referenceTargets(
      storedFileSheets(
        [
          { pageNumber: 1, sheetNumber: 'A-101' },
          { pageNumber: 2, sheetNumber: 'A-501' },
        ],
        [
          { pageNumber: 2, regionIndex: 4, viewNumber: '3' },
          { pageNumber: 2, regionIndex: 2, viewNumber: '1' },
        ],
      ),
    );
    // Act
    const { data } = renormalizeRegion(stored, []);
    const resolved = withTargets(
      {
        ...data,
        sheetReferences: [
          ...data.sheetReferences,
          { text: '2/M-101', detail: '2', sheet: 'M-101', sheetNormalized: 'M-101', displayBox: null },
        ],
      },
      targetOf,
    );
    // Assess
    expect(resolved.sheetReferences.map((reference) => reference.target)).toEqual([
      { pageNumber: 2, regionId: 'p2-view-5' },
      null,
    ]);
  });
});
