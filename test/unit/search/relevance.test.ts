import { describe, expect, it } from 'vitest';
import {
  confidenceOf,
  coverageOf,
  passageTokens,
  queryUnits,
  RELEVANCE_FLOOR,
} from '../../../functions/core/search/relevance.ts';

describe('the confidence of a hit', () => {
  it("counts the query's words a passage has, by stem, concept or written identifier", () => {
    // Prepare: a query with an identifier, a word and an abbreviation the thesaurus knows.
    const units = queryUnits('GWB partitions on sheet A-101');
    const passage = passageTokens('A-101 FLOOR PLAN', 'Gypsum board partition types, see schedule.');

    // Act
    const coverage = coverageOf(units, passage);

    // Assess: a101, gwb (as gypsum board), partition (stem), sheet (absent) → 3 of 4.
    expect(units).toHaveLength(4);
    expect(coverage).toBe(0.75);
  });

  it("lets a project's definition stand for the word it defines", () => {
    const passage = passageTokens('SECTION', 'FULL STRENGTH BUTT WELD TO ANCHOR PLATE');

    expect(coverageOf(queryUnits('FSBW anchor'), passage)).toBe(0.5);
    expect(
      coverageOf(queryUnits('FSBW anchor', [{ written: 'FSBW', other: 'FULL STRENGTH BUTT WELD' }]), passage),
    ).toBe(1);
    // The other way round: the query writes the meaning, the passage the abbreviation.
    const abbreviated = passageTokens('DETAIL', 'FSBW ALL ROUND');
    const units = queryUnits('full strength butt weld', [
      { written: 'full strength butt weld', other: 'FSBW' },
    ]);
    expect(coverageOf(units, abbreviated)).toBe(1);
  });

  it('rises with coverage, similarity and agreement, and puts a passage without the query under the floor', () => {
    const weak = confidenceOf({ coverage: 0.25, similarity: 0.3, agreement: false });
    const strong = confidenceOf({ coverage: 1, similarity: 0.7, agreement: true });
    const lexicalOnly = confidenceOf({ coverage: 1, similarity: null, agreement: false });

    expect(weak).toBeLessThan(RELEVANCE_FLOOR);
    expect(strong).toBeGreaterThan(RELEVANCE_FLOOR);
    expect(lexicalOnly).toBeGreaterThan(RELEVANCE_FLOOR);
    expect(confidenceOf({ coverage: 0.5, similarity: 0.5, agreement: true })).toBeGreaterThan(
      confidenceOf({ coverage: 0.5, similarity: 0.5, agreement: false }),
    );
  });
});
