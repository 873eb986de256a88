import { describe, expect, it } from 'vitest';
import { foldViewTitle, matchRegions } from '../../../bench/extraction-eval/score-regions.ts';
import { emptyNormalizedData } from '../../../functions/engine/assembly/normalize.ts';
import type { Region, Sheet } from '../../../functions/engine/model.ts';
import { sheetFixture } from './fixtures.ts';

const region = (
  regionType: Region['regionType'],
  box: [number, number, number, number],
  extra: { title?: [number, number, number, number]; viewTitle?: string } = {},
): Region => {
  const [left, top, right, bottom] = box;
  return {
    regionId: `p1-${regionType}`,
    pageNumber: 1,
    sheetNumber: null,
    label: extra.viewTitle ?? regionType,
    regionType,
    drawingType: null,
    text: '',
    displayBox: { left, top, right, bottom },
    titleDisplayBox: extra.title
      ? { left: extra.title[0], top: extra.title[1], right: extra.title[2], bottom: extra.title[3] }
      : null,
    textSource: 'textLayer',
    ocrConfidence: null,
    normalizedData: { ...emptyNormalizedData(), viewTitle: extra.viewTitle ?? null },
  };
};

const sheetWith = (regions: Region[]): Pick<{ sheets: Sheet[] }, 'sheets'> => ({
  sheets: [sheetFixture(regions)],
});

describe('region scoring', () => {
  it('matches a labeled region only by a compatible type with IoU of at least 0.5', () => {
    // Prepare: a notes block answered by a generalNotes region (IoU 0.8) and a legend answered by nothing
    // of its type (the schedule over it does not count).
    const result = sheetWith([
      region('generalNotes', [100, 100, 300, 260]),
      region('schedule', [500, 500, 700, 700]),
    ]);
    const labels = [
      {
        page: 1,
        regions: [
          { type: 'notes', bbox: [100, 100, 300, 300] },
          { type: 'legend', bbox: [500, 500, 700, 700] },
          { type: 'photo', bbox: [0, 0, 10, 10] },
        ],
      },
    ];
    // Act
    const score = matchRegions('f.pdf', labels, result);
    // Assess: the photo has no engine type and is not counted.
    expect(score.boxesLabeled).toBe(2);
    expect(score.boxesMatched).toBe(1);
    expect(score.details).toEqual(['p1 box legend "" best IoU 0.00']);
  });

  it('compares a view title box with the title box and a drawing extent with the view box', () => {
    const result = sheetWith([
      region('view', [0, 0, 1000, 820], { title: [100, 800, 300, 820], viewTitle: 'FLOOR PLAN' }),
    ]);
    const titleOnly = [
      { page: 1, views: [{ number: '1', title: 'FLOOR PLAN', bbox: [100, 798, 300, 822] }] },
    ];
    const extentOnly = [
      { page: 1, views: [{ number: null, title: 'plan (untitled)', bbox: [0, 0, 1000, 800] }] },
    ];
    expect(matchRegions('f.pdf', titleOnly, result).boxesMatched).toBe(1);
    const extent = matchRegions('f.pdf', extentOnly, result);
    expect(extent.boxesMatched).toBe(1);
    // An untitled view is not a view title to find.
    expect(extent.viewTitlesLabeled).toBe(0);
  });

  it('finds views by printed title, one predicted view per label', () => {
    const result = sheetWith([
      region('view', [0, 0, 10, 10], { viewTitle: 'PLAN' }),
      region('view', [0, 0, 10, 10], { viewTitle: 'SECTION "A-A"' }),
    ]);
    const labels = [
      {
        page: 1,
        views: [
          { number: null, title: 'PLAN (Woolsey St & Colby St)' },
          { number: null, title: 'PLAN' },
          { number: null, title: 'SECTION A-A' },
        ],
      },
    ];
    const score = matchRegions('f.pdf', labels, result);
    expect(score.viewTitlesLabeled).toBe(3);
    expect(score.viewTitlesFound).toBe(2);
  });

  it('drops lower-case labeller notes but keeps printed parentheses', () => {
    expect(foldViewTitle('PLAN (Woolsey St & Colby St)')).toBe('PLAN');
    expect(foldViewTitle('CROSS SECTION (FRONT VIEW)')).toBe('CROSSSECTIONFRONTVIEW');
  });
});
