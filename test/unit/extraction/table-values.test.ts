import { describe, expect, it } from 'vitest';
import {
  columnKind,
  feetAndInches,
  inchesOnly,
  repairColumnValues,
  sameHeadings,
} from '../../../functions/engine/drawings/table-values.ts';

describe('lengths in feet and inches as OCR reads them', () => {
  it.each([
    ['2\'-7"', '2\'-7"'],
    ['2’-1”', '2\'-1"'],
    ['r-4*', '1\'-4"'],
    ['1-47', '1\'-4"'],
    ['7-07', '7\'-0"'],
    ["0'-10°", '0\'-10"'],
    ['1-11"', '1\'-11"'],
    ['0\'-10 1/2"', '0\'-10 1/2"'],
  ])('reads %s as %s', (read, expected) => {
    expect(feetAndInches(read)).toBe(expected);
  });

  it.each([['G-2'], ['117,470'], ['1-13'], ['07'], ['5r_gr']])('does not read %s as a length', (read) => {
    expect(feetAndInches(read)).toBeNull();
  });

  it('reads sizes in inches', () => {
    expect(inchesOnly('24°')).toBe('24"');
    expect(inchesOnly('6 1/2”')).toBe('6 1/2"');
    expect(inchesOnly('PVC')).toBeNull();
  });
});

describe("a column's values written in the column's kind", () => {
  it('writes every cell of a column of lengths as feet and inches when one cell shows the foot mark', () => {
    // Prepare: a thrust-block column as OCR read it; one cell is not a length at all.
    const column = ['2\'-7"', 'r-4*', '1-47', '7-07', '', 'ore'];

    // Act
    const repaired = repairColumnValues(column);

    // Assess
    expect(repaired).toEqual(['2\'-7"', '1\'-4"', '1\'-4"', '7\'-0"', '', 'ore']);
  });

  it('takes `r-` for the foot mark, and two digits and a mark for a length that lost its foot mark and dash', () => {
    // Prepare: a column of lengths read with no foot mark but the `r` of `1'`; another with dashless cells.
    const ones = ['r-0', 'r-0', 'r-3', 'r-0'];
    const lost = ['7\'-0"', '6\'-0"', '5\'-6"', '50°', '4\'-0"', '3\'-6"'];

    // Act / Assess
    expect(repairColumnValues(ones)).toEqual(['1\'-0"', '1\'-0"', '1\'-3"', '1\'-0"']);
    expect(repairColumnValues(lost)).toEqual(['7\'-0"', '6\'-0"', '5\'-6"', '5\'-0"', '4\'-0"', '3\'-6"']);
  });

  it('leaves a column of angles as read (two digits and a degree sign are not lengths by themselves)', () => {
    const angles = ['90°', '45°', '22°', '11°'];
    expect(repairColumnValues(angles)).toEqual(angles);
  });

  it('writes a column of sizes in inches when one cell shows the inch mark', () => {
    expect(repairColumnValues(['24”', '20°', '18', 'PVC'])).toEqual(['24"', '20"', '18"', 'PVC']);
  });

  it('leaves a column that shows no mark, or whose cells are mostly something else, as read', () => {
    // Prepare: counts (no mark shown), and sheet numbers with one stray length.
    const counts = ['1', '2', '12', '4'];
    const sheets = ['G-1', 'G-2', 'R-1', '2\'-3"'];

    // Act / Assess
    expect(repairColumnValues(counts)).toEqual(counts);
    expect(repairColumnValues(sheets)).toEqual(sheets);
  });
});

describe('tables of one family share their columns’ kinds', () => {
  it('writes a column that shows no mark in the kind the same column of a sibling table showed', () => {
    // Prepare: a pipe-size column read without any inch mark (°, bare numbers, `gr` for 8"), and the kind its
    // sibling showed.
    const sizes = ['24°', '20°', '18°', '6', '4', 'gr'];

    // Act / Assess: alone, no kind; with the sibling's, inches.
    expect(columnKind(sizes)).toBeNull();
    expect(repairColumnValues(sizes)).toEqual(sizes);
    expect(repairColumnValues(sizes, 'inches')).toEqual(['24"', '20"', '18"', '6"', '4"', '8"']);
    // A look-alike letter read for a digit, in a column of sizes only (`gr` is `8"`; `Bo` ends in no mark).
    expect(repairColumnValues(['24"', '20"', '18"', 'gr', 'Bo'])).toEqual(['24"', '20"', '18"', '8"', 'Bo']);
    expect(repairColumnValues(['gr', 'Sr', 'lg'])).toEqual(['gr', 'Sr', 'lg']);
    // A known kind the column does not read as is not forced on it.
    expect(repairColumnValues(['CABINET', 'MIXER', 'PROCESSOR'], 'inches')).toEqual([
      'CABINET',
      'MIXER',
      'PROCESSOR',
    ]);
  });

  it('tells tables printing the same headings (OCR may misread some) from other tables', () => {
    const table = (header: string[]) => ({ header: [header], columnCount: header.length });
    const first = table(['Pipe Size X', 'A', 'B', 'C', 'D']);
    expect(sameHeadings(first, table(['pe Size X', 'A', 'B', 'c', 'D']))).toBe(true);
    expect(sameHeadings(first, table(['MARK', 'SIZE', 'TYPE', 'REMARKS', 'QTY']))).toBe(false);
    expect(sameHeadings(first, table(['Pipe Size X', 'A', 'B', 'C']))).toBe(false);
    expect(sameHeadings(first, first)).toBe(false);
  });
});
