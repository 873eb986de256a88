import { describe, expect, it } from 'vitest';
import { assembleSheets } from '../../../functions/engine/drawings/sheet-set.ts';
import { findTitleLinesWithoutNumber } from '../../../functions/engine/drawings/sheet-title.ts';
import { disciplineFromTitle } from '../../../functions/engine/drawings/title-discipline.ts';
import type { Line, TextDirection, Word } from '../../../functions/engine/geometry.ts';
import type { SheetPageResult } from '../../../functions/engine/pages/sheets.ts';

/** One OCR line at (x, y), horizontal or (dir 270) running up a title strip. */
const line = (text: string, x: number, y: number, size: number, dir: TextDirection = 0): Line => {
  const length = text.length * size * 0.6;
  const box =
    dir === 0
      ? { x0: x, y0: y, x1: x + length, y1: y + size }
      : { x0: x, y0: y, x1: x + size, y1: y + length };
  const word: Word = { text, ...box, size, dir, font: 'ocr', source: 'ocr', confidence: 90 };
  return { ...word, words: [word], text, size, dir };
};

/** A title strip along the right edge of a 2592 x 1728 sheet. */
const strip = { x0: 2300, y0: 100, x1: 2560, y1: 1650 };

const unnumberedSheet = (lines: Line[]): SheetPageResult => ({
  width: 2592,
  height: 1728,
  numberCandidates: [],
  titleLines: [findTitleLinesWithoutNumber(lines, strip, 2592, 1728)],
  titleBlock: strip,
  regions: [],
  drawingAreaIndex: null,
  revisions: [],
  usedOcr: true,
});

describe('a sheet without a number', () => {
  it('takes as title a title-block line that names a kind of drawing, in any reading direction', () => {
    // Prepare: the owner's name is larger, but names no drawing; the title runs up the strip.
    const lines = [
      line('MADISON PROPERTY MANAGEMENT', 2350, 300, 30, 270),
      line('SITE PLAN', 2420, 900, 22, 270),
      line('Number of Parking Stalls Shown', 1500, 1500, 12),
    ];

    // Act
    const [sheet] = assembleSheets([
      { pageNumber: 1, sheet: unnumberedSheet(lines), width: 2592, height: 1728 },
    ]);

    // Assess
    expect(sheet?.sheetNumber).toBeNull();
    expect(sheet?.sheetTitle).toBe('SITE PLAN');
    expect(sheet?.discipline?.code).toBe('C');
    expect(sheet?.discipline?.printedPrefix).toBe('');
  });

  it('gets no title when no title-block line names a kind of drawing', () => {
    const lines = [line('MADISON PROPERTY MANAGEMENT', 2350, 300, 30, 270)];
    const [sheet] = assembleSheets([
      { pageNumber: 1, sheet: unnumberedSheet(lines), width: 2592, height: 1728 },
    ]);
    expect(sheet?.sheetTitle).toBeNull();
    expect(sheet?.discipline).toBeNull();
  });
});

describe('discipline from the title', () => {
  it('reads the discipline a title names, the discipline named outright first', () => {
    expect(disciplineFromTitle('STANDARD COLD PLANING AND RESURFACING CROSS SECTIONS')?.code).toBe('C');
    expect(disciplineFromTitle('DRIVEWAY CONSTRUCTION')?.code).toBe('C');
    expect(disciplineFromTitle('Second Floor Plan')?.code).toBe('A');
    expect(disciplineFromTitle('SITE LIGHTING PLAN')?.code).toBe('E');
    expect(disciplineFromTitle('FOUNDATION PLAN')?.code).toBe('S');
  });

  it('names none for a title of no known kind', () => {
    expect(disciplineFromTitle('DETAILS')).toBeNull();
    expect(disciplineFromTitle(null)).toBeNull();
  });
});
