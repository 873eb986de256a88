import { describe, expect, it } from 'vitest';
import { boilerplateCleaner } from '../../../functions/engine/drawings/title-boilerplate.ts';

const PROJECT = 'PAUL AVE, WOOLSEY ST AND SALINAS AVE PAVEMENT RENOVATION AND SEWER REPLACEMENT';

describe('title boilerplate of a set', () => {
  // Prepare: four sheets repeat the project name (read whole, split, or with an OCR slip).
  const clean = boilerplateCleaner([
    [PROJECT, 'PAVEMENT PLAN', 'WOOLSEY STREET'],
    [PROJECT, 'TYPICAL SECTIONS'],
    ['PAUL AVE, WOOLSEY ST AND SALINAS AVE', 'PAVEMENT RENOVATION AND SEWER REPLACEMENT', 'DETAILS'],
    [PROJECT, 'CURB RAMP DETAILS'],
  ]);

  it('drops the repeated line, its parts and its OCR variants', () => {
    expect(clean(PROJECT)).toBeNull();
    expect(clean('RENOVATION AND SEWER REPLACEMENT')).toBeNull();
    expect(clean('IPAVEMENT RENOVATION AND SEWER REPLACEMENT')).toBeNull();
    // A piece of the repeated line with a slip (a cell border read as `I`).
    expect(clean('IPAVEMENT RENOVATION AND SEWER')).toBeNull();
  });

  it('keeps a short title that shares words with the repeated line', () => {
    expect(clean('PAVEMENT RENOVATION PLAN')).toBe('PAVEMENT RENOVATION PLAN');
  });

  it('keeps titles and cuts a repeated line glued in front of one', () => {
    expect(clean('TYPICAL SECTIONS')).toBe('TYPICAL SECTIONS');
    expect(clean('PAVEMENT RENOVATION AND SEWER REPLACEMENT PEDESTRIAN RAILING DETAIL')).toBe(
      'PEDESTRIAN RAILING DETAIL',
    );
  });

  it('keeps a repeated line that names a kind of drawing: the last line of many titles', () => {
    // Prepare
    const sheets = ['46TH AVENUE', '47TH AVENUE', 'VICENTE STREET', 'SLOAT BOULEVARD'].map((street) => [
      PROJECT,
      street,
      'PLAN AND PROFILE',
    ]);

    // Act
    const cleanSet = boilerplateCleaner(sheets);

    // Assess
    expect(cleanSet('PLAN AND PROFILE')).toBe('PLAN AND PROFILE');
    expect(cleanSet(PROJECT)).toBeNull();
  });

  it('drops plotter file paths', () => {
    expect(clean('C:\\Users\\someone\\Desktop\\Plan.dwg')).toBeNull();
  });

  it('drops nothing in a set too small to show repetition', () => {
    const small = boilerplateCleaner([[PROJECT], [PROJECT]]);
    expect(small(PROJECT)).toBe(PROJECT);
  });
});
