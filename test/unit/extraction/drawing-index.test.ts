import { describe, expect, it } from 'vitest';
import {
  inBlockOrder,
  learnTitleOrders,
  numbersFromIndexOrder,
  readDrawingIndex,
  reconcileTitle,
  setDrawingIndex,
} from '../../../functions/engine/drawings/drawing-index.ts';
import type { Word } from '../../../functions/engine/geometry.ts';

/** Words of one printed row: [text, x] pairs at height y, 10 pt lettering, read by OCR. */
const row = (y: number, ...pieces: Array<[string, number]>): Word[] =>
  pieces.map(([text, x]) => ({
    text,
    x0: x,
    y0: y,
    x1: x + text.length * 6,
    y1: y + 10,
    size: 10,
    dir: 0,
    font: 'ocr',
    source: 'ocr',
    confidence: 90,
  }));

describe('drawing index', () => {
  it('reads number and title per row, two columns side by side, file numbers left out', () => {
    // Prepare: a dash drawn as a line leaves a wide gap between the parts of a title.
    const words = [
      ...row(
        100,
        ['6-0', 200],
        ['117,470', 260],
        ['COVER', 330],
        ['PAGE', 366],
        ['LOCATION', 410],
        ['MAP', 460],
      ),
      ...row(100, ['SW-1', 1300], ['PLAN', 1360], ['AND', 1390], ['PROFILE', 1414]),
      ...row(125, ['G-1', 200], ['117,471', 260], ['VICINITY', 330], ['MAP', 382]),
      ...row(125, ['SW-2', 1300], ['DETAILS', 1360]),
      ...row(150, ['G-2', 200], ['117,472', 260], ['INDEX', 330], ['OF', 364], ['DRAWINGS', 380]),
      ...row(150, ['u-1', 1300], ['UTILITY', 1360], ['PLAN', 1406]),
    ];

    // Act
    const entries = readDrawingIndex(words, null);

    // Assess
    expect(entries).toEqual([
      { number: 'G-0', title: 'COVER PAGE - LOCATION MAP' },
      { number: 'G-1', title: 'VICINITY MAP' },
      { number: 'G-2', title: 'INDEX OF DRAWINGS' },
      { number: 'SW-1', title: 'PLAN AND PROFILE' },
      { number: 'SW-2', title: 'DETAILS' },
      { number: 'U-1', title: 'UTILITY PLAN' },
    ]);
  });

  it('is the index of the set only when it names the sheets the set reads', () => {
    // Prepare: an equipment schedule is a column of tags and descriptions too.
    const schedule = [
      { number: 'AHU-1', title: 'AIR HANDLING UNIT' },
      { number: 'EF-1', title: 'EXHAUST FAN' },
      { number: 'EF-2', title: 'EXHAUST FAN' },
    ];
    const index = [
      { number: 'G-0', title: 'COVER PAGE' },
      { number: 'G-1', title: 'VICINITY MAP' },
      { number: 'G-2', title: 'INDEX OF DRAWINGS' },
    ];

    // Act
    const fromSchedule = setDrawingIndex([schedule], ['G-1', 'G-2']);
    const fromIndex = setDrawingIndex([[], index], ['G-1', 'G-2']);

    // Assess
    expect(fromSchedule).toBeNull();
    expect(fromIndex?.positionOf.get('G-1')).toBe(1);
  });

  it('is the longest list that names the set, not a longer schedule on another sheet', () => {
    // Prepare: a four-row equipment schedule on one sheet, the three-row index on another.
    const schedule = ['AHU-1', 'EF-1', 'EF-2', 'EF-3'].map((number) => ({ number, title: 'FAN' }));
    const index = [
      { number: 'G-0', title: 'COVER PAGE' },
      { number: 'G-1', title: 'VICINITY MAP' },
      { number: 'G-2', title: 'INDEX OF DRAWINGS' },
    ];

    // Act
    const found = setDrawingIndex([schedule, index], ['G-1', 'G-2']);

    // Assess
    expect(found?.entries).toEqual(index);
  });

  it('ends a title with the part that tells sheets apart, not with a file number further off', () => {
    // Prepare: `SHEET 1` at a word's gap; a file number `2` far right of `AREA`.
    const words = [
      ...row(100, ['S001', 200], ['STRUCTURAL', 240], ['NOTES', 306], ['SHEET', 342], ['1', 376]),
      ...row(120, ['S002', 200], ['STRUCTURAL', 240], ['NOTES', 306], ['SHEET', 342], ['2', 376]),
      ...row(140, ['S602', 200], ['FRAMING', 240], ['AREA', 288], ['C', 316]),
      ...row(160, ['S701', 200], ['BRACING', 240], ['PLAN', 288], ['2', 340]),
    ];

    // Act
    const entries = readDrawingIndex(words, null);

    // Assess
    expect(entries.map((entry) => entry.title)).toEqual([
      'STRUCTURAL NOTES SHEET 1',
      'STRUCTURAL NOTES SHEET 2',
      'FRAMING AREA C',
      'BRACING PLAN',
    ]);
  });

  it('numbers an unread sheet from the positions of its neighbours in the index', () => {
    // Prepare
    const index = setDrawingIndex(
      [
        [
          { number: 'G-0', title: 'COVER PAGE' },
          { number: 'G-1', title: 'VICINITY MAP' },
          { number: 'G-2', title: 'INDEX OF DRAWINGS' },
          { number: 'R-1', title: 'PAVEMENT PLAN' },
        ],
      ],
      ['G-1', 'G-2'],
    );
    if (!index) throw new Error('no index');

    // Act
    const numbers = numbersFromIndexOrder([null, 'G-1', 'G-2', null, null], index);

    // Assess: the sheet after G-2 is R-1; the last one has no neighbour in the index.
    expect(numbers).toEqual(['G-0', null, null, 'R-1', null]);
  });

  it('takes the index title where the reading misses words of it, else keeps the reading', () => {
    const index = 'EXISTING TRAFFIC STRIPING - WOOLSEY ST, UNIVERSITY ST TO HAMILTON ST';
    expect(reconcileTitle('EXISTING TRAFFIC STRIPING UNIVERSITY ST. TO HAMILTON ST.', index)).toBe(index);
    expect(reconcileTitle(null, 'VICINITY MAP')).toBe('VICINITY MAP');
    // Every word of the index read (one slip allowed): the reading, as printed.
    expect(reconcileTitle('INDEX OF DRAWINGS', 'INDEX OF DRAWNGS')).toBe('INDEX OF DRAWINGS');
    // A slip the set's other titles spell otherwise (a cell border read into the word).
    const known = (word: string): boolean => word === 'WOOLSEY';
    expect(reconcileTitle('TRAFFIC STRIPING IWOOLSEY ST.', 'TRAFFIC STRIPING - WOOLSEY ST', known)).toBe(
      'TRAFFIC STRIPING WOOLSEY ST.',
    );
    // Words the index does not have: the title block names the sheet its own way.
    expect(reconcileTitle('PAUL AVENUE SEWER REPLACEMENT PLAN AND PROFILES', 'PLAN AND PROFILE')).toBe(
      'PAUL AVENUE SEWER REPLACEMENT PLAN AND PROFILES',
    );
  });

  it('puts the parts of an index title in the order the set prints them in title blocks', () => {
    // Prepare
    const orders = learnTitleOrders([
      {
        reading: 'WOOLSEY STREET AT COLBY STREET CURB RAMP DETAILS',
        indexTitle: 'CURB RAMP DETAILS - WOOLSEY STREET AT COLBY STREET',
      },
    ]);

    // Act
    const title = inBlockOrder('CURB RAMP DETAILS - SALINAS AVENUE AT CARR STREET', orders);

    // Assess
    expect(title).toBe('SALINAS AVENUE AT CARR STREET CURB RAMP DETAILS');
    expect(inBlockOrder('PAVEMENT PLAN - PAUL AVENUE', orders)).toBe('PAVEMENT PLAN - PAUL AVENUE');
  });
});
