import { describe, expect, it } from 'vitest';
import { withConnectingWords } from '../../../functions/engine/drawings/sheet-set.ts';

describe('titles across a set', () => {
  it('puts back a connecting word OCR dropped, where another sheet reads it in the same words', () => {
    // Prepare: two copies of one sheet, one read without `TO`; an intersection sheet with `AT`.
    const titles = [
      'SLOAT BOULEVARD LOWER GREAT HIGHWAY TO MATCHLINE "A" PLAN AND PROFILES',
      'SLOAT BOULEVARD LOWER GREAT HIGHWAY MATCHLINE "A" PLAN AND PROFILES',
      'WOOLSEY STREET AT BOWDOIN STREET CURB RAMP DETAILS',
      'PAVEMENT PLAN WOOLSEY STREET BOWDOIN STREET TO SOMERSET STREET',
    ];

    // Act
    const fixed = withConnectingWords(titles, [true, true, true, true]);

    // Assess: street limits are not an intersection (the words around the gap differ).
    expect(fixed).toEqual([titles[0], titles[0], titles[2], titles[3]]);
  });

  it('leaves titles read from the text layer as printed', () => {
    const titles = ['GREAT HIGHWAY TO MATCHLINE A', 'GREAT HIGHWAY MATCHLINE A'];
    expect(withConnectingWords(titles, [false, false])).toEqual(titles);
  });
});
