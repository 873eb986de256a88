/**
 * Title-block conventions of firms whose sets the rules were not written from: compound sheet identifiers,
 * `N OF M` numbering, a title field above the number's row, a title's last line of letters, and title blocks on
 * sets plotted at letter size. Pure functions over words: no PDF is opened.
 */
import { describe, expect, it } from 'vitest';
import { findNumberCandidates } from '../../../functions/engine/drawings/number-candidates.ts';
import { parseCompoundSheetNumber } from '../../../functions/engine/drawings/sheet-number.ts';
import { assembleSheets } from '../../../functions/engine/drawings/sheet-set.ts';
import { findTitleLines, rankTitleCandidates } from '../../../functions/engine/drawings/sheet-title.ts';
import { printsTitleBlock } from '../../../functions/engine/drawings/title-block.ts';
import type { Word } from '../../../functions/engine/geometry.ts';
import { buildLines } from '../../../functions/engine/layout.ts';
import type { SheetPageResult } from '../../../functions/engine/pages/sheets.ts';

/** Text-layer words of one line starting at (x, top), each word 0.55 size wide per letter. */
const line = (text: string, x: number, top: number, size = 10): Word[] => {
  let left = x;
  return text.split(' ').map((part) => {
    const word: Word = {
      text: part,
      x0: left,
      y0: top,
      x1: left + part.length * size * 0.55,
      y1: top + size,
      size,
      dir: 0,
      font: 'f1',
      source: 'textLayer',
      confidence: null,
    };
    left = word.x1 + size * 0.3;
    return word;
  });
};

const candidatesOf = (words: Word[], width = 1684, height = 1191) =>
  findNumberCandidates(words, buildLines(words, { gapFactor: 1.5 }), width, height);

describe('compound sheet identifiers', () => {
  it('reads the designator among the parts', () => {
    expect(parseCompoundSheetNumber('4977_S_DW01')).toMatchObject({ printed: '4977_S_DW01', prefix: 'S' });
    expect(parseCompoundSheetNumber('1234-A-101')?.prefix).toBe('A');
    expect(parseCompoundSheetNumber('COV-S')?.prefix).toBe('S');
  });

  it('is not a section cut, a direction or a plain number', () => {
    expect(parseCompoundSheetNumber('A-A')).toBeNull();
    expect(parseCompoundSheetNumber('N-S')).toBeNull();
    expect(parseCompoundSheetNumber('2016-09-06')).toBeNull();
  });

  it('counts only under a number field label, and the revision beside it does not', () => {
    // Prepare: `DWG No.` over the number, `REVISION` over the revision mark on the same row.
    const words = [
      ...line('DWG No.', 1450, 1090, 7),
      ...line('REVISION', 1600, 1090, 7),
      ...line('4977_S_DW01 C06', 1455, 1105, 20),
      ...line('4977_S_DW02', 700, 500, 20),
    ];

    // Act
    const candidates = candidatesOf(words);

    // Assess: the labelled identifier leads; the one in the drawing (no label) is not read as a compound.
    expect(candidates[0]?.printed).toBe('4977_S_DW01');
    expect(candidates.map((candidate) => candidate.printed)).not.toContain('4977_S_DW02');
    const revision = candidates.find((candidate) => candidate.printed === 'C06');
    expect(revision?.score ?? 0).toBeLessThan(candidates[0]?.score ?? 0);
  });
});

describe('sheets numbered by their place in the set', () => {
  it('reads N of `N OF M`, the OF set smaller on its own line', () => {
    // Prepare: `Sheet:` label, then `3` and `23` large with a small `OF` between them.
    const words = [
      ...line('Sheet:', 698, 536, 5),
      ...line('3', 705, 544, 14),
      ...line('OF', 722, 549, 6),
      ...line('23', 740, 544, 14),
    ];

    // Act
    const candidates = candidatesOf(words, 792, 612);

    // Assess
    expect(candidates.map((candidate) => candidate.printed)).toEqual(['3']);
  });

  it('does not read a place past the total', () => {
    const words = [...line('24', 705, 544, 14), ...line('OF', 722, 549, 6), ...line('23', 740, 544, 14)];
    expect(candidatesOf(words, 792, 612)).toEqual([]);
  });
});

describe('the title field', () => {
  it('is read under its label above the number row, and ends with a line of letters', () => {
    // Prepare: a bottom strip whose ruled block found around the number is only the number's row; the title
    // field (`DRAWING TITLE:`) sits in the row above it, its last line `A & B`.
    const words = [
      ...line('DRAWING TITLE:', 1370, 1032, 10),
      ...line('STAIRS LAYOUT', 1370, 1046, 14),
      ...line('A & B', 1370, 1062, 14),
      ...line('PROJECT DETAILS:', 1115, 1032, 10),
      ...line('DRAWING No:', 1518, 1110, 10),
      ...line('S002', 1519, 1124, 14),
    ];
    const lines = buildLines(words, { gapFactor: 1.5 });
    const number = candidatesOf(words)[0] ?? null;
    const rowBlock = { x0: 40, y0: 1106, x1: 1640, y1: 1145 };

    // Act
    const titleLines = findTitleLines(lines, number, rowBlock, 1684, 1191);
    const best = number ? rankTitleCandidates(titleLines, number)[0] : undefined;

    // Assess
    expect(number?.printed).toBe('S002');
    expect(best?.text).toBe('STAIRS LAYOUT A & B');
  });
});

describe('a title block on a page of any size', () => {
  const strip = (labels: string[]): Word[] => labels.flatMap((label, i) => line(label, 640, 400 + 12 * i, 5));

  it('is four kinds of field in a strip along the right edge', () => {
    const words = strip(['Drawn:', 'Date:', 'Drawing Scale:', 'Project Number:', 'Sheet:', 'Drawing Name:']);
    expect(printsTitleBlock(buildLines(words, { gapFactor: 1.5 }), 792, 612)).toBe(true);
  });

  it('is not a form page with a date and a project number in its margin', () => {
    const words = [
      ...strip(['Date:', 'Project Number:']),
      ...line('SECTION 00 41 00 - BID FORM', 72, 72, 10),
    ];
    expect(printsTitleBlock(buildLines(words, { gapFactor: 1.5 }), 792, 612)).toBe(false);
  });
});

describe('a set numbered by place', () => {
  /** A letter-size sheet whose `N OF M` number and title were read in its right strip. */
  const placeSheet = (place: number, title: string): SheetPageResult => {
    const words = [
      ...line(String(place), 705, 544, 14),
      ...line('OF', 722, 549, 6),
      ...line('4', 740, 544, 14),
    ];
    const [number] = candidatesOf(words, 792, 612);
    if (!number) throw new Error('no candidate');
    return {
      width: 792,
      height: 612,
      numberCandidates: [number],
      titleLines: [[{ text: title, box: { x0: 640, y0: 440, x1: 740, y1: 452 }, size: 12, labelBonus: 3 }]],
      titleBlock: { x0: 633, y0: 28, x1: 760, y1: 594 },
      regions: [],
      drawingAreaIndex: null,
      revisions: [],
      usedOcr: false,
    };
  };

  it('gives no discipline from titles, and says where each number and title came from', () => {
    // Prepare: four sheets numbered 1..4 of 4; the third sheet's number is not read.
    const titles = ['SITE PLAN', 'FOUNDATION PLAN', 'MAIN FLOOR PLAN', 'MAIN FLOOR PLAN ELECTRICAL'];
    const pages = titles.map((title, i) => ({
      pageNumber: i + 2,
      sheet: placeSheet(i + 1, title),
      width: 792,
      height: 612,
    }));
    const third = pages[2];
    if (!third) throw new Error('no third page');
    third.sheet = { ...third.sheet, numberCandidates: [] };

    // Act
    const sheets = assembleSheets(pages);

    // Assess
    expect(sheets.map((sheet) => sheet.sheetNumber)).toEqual(['1', '2', null, '4']);
    expect(sheets.map((sheet) => sheet.discipline)).toEqual([null, null, null, null]);
    expect(sheets[0]?.identification).toEqual({
      numberSource: 'titleBlock',
      titleSource: 'titleBlock',
      indexEntry: null,
    });
    expect(sheets[2]?.identification?.numberSource).toBe('none');
  });
});
