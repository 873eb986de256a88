import { describe, expect, it } from 'vitest';
import {
  confidenceOf,
  coverageOf,
  fileNameTokens,
  passageTokens,
  queryUnits,
  RELEVANCE_FLOOR,
  unitWeights,
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

  it('rises with coverage, and puts a passage with less than half of the query under the floor', () => {
    expect(confidenceOf(0.33)).toBeLessThan(RELEVANCE_FLOOR);
    expect(confidenceOf(0.6)).toBeGreaterThan(RELEVANCE_FLOOR);
    expect(confidenceOf(1)).toBeGreaterThan(confidenceOf(0.6));
    expect(confidenceOf(0)).toBeGreaterThanOrEqual(0);
    expect(confidenceOf(1)).toBeLessThanOrEqual(1);
  });

  it("leaves out the words that name the passage's own file", () => {
    const units = queryUnits('post-tensioned slab tendons at Star of the Sea');
    const passage = passageTokens('TITLE BLOCK', 'STAR OF THE SEA COLLEGE  SLAB ON GROUND');

    // Star and sea name the file: of post, tensioned, slab and tendons the passage has slab.
    expect(
      coverageOf(units, passage, fileNameTokens('collective-star-of-the-sea-college_structural.pdf')),
    ).toBe(0.25);
    // In another file they are words of the query like the others.
    expect(coverageOf(units, passage)).toBe(0.5);
  });

  it('weighs a word most found passages hold less than one none of them holds', () => {
    const units = queryUnits('slab tendon layout');
    const found = ['SLAB ON GROUND', 'SLAB EDGE', 'SLAB STEP LAYOUT', 'PT SLAB'];

    const [slab, tendon, layout] = unitWeights(units, found);

    expect(tendon).toBeGreaterThan(layout as number);
    expect(layout).toBeGreaterThan(slab as number);
    // A passage with the common words and not the rare one covers less than half of the query.
    expect(
      coverageOf(units, passageTokens('', 'SLAB STEP LAYOUT'), new Set(), unitWeights(units, found)),
    ).toBeLessThan(0.5);
  });

  it("lets the trade terms of the query's plain phrases stand for them", () => {
    const passage = passageTokens('NOTES', 'MAINTAIN A PEDESTRIAN PATH 4 FT MINIMUM WIDTH');

    expect(coverageOf(queryUnits('people on foot'), passage)).toBe(1);
  });
});
