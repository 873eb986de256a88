import { describe, expect, it } from 'vitest';
import {
  findNumberCandidates,
  GOOD_NUMBER_SCORE,
} from '../../../functions/engine/drawings/number-candidates.ts';
import { withSetSeparator } from '../../../functions/engine/drawings/sheet-numbering.ts';
import { rankTitleCandidates, titleTextOf } from '../../../functions/engine/drawings/sheet-title.ts';
import { onEverySheet } from '../../../functions/engine/drawings/title-boilerplate.ts';
import type { Word } from '../../../functions/engine/geometry.ts';
import { toWords } from '../../../functions/engine/io/ocr.ts';
import { buildLines } from '../../../functions/engine/layout.ts';
import {
  mergeOcrWords,
  replaceOcrWords,
  unreadNumberFields,
} from '../../../functions/engine/pages/title-block-ocr.ts';
import { ocrWordAt as ocrWord, wordAt } from './fixtures.ts';

const W = 2448;
const H = 1584;

/** The right-hand column of a standard plan's title block: an old file number over the file number. */
const fileNumberColumn = (oldValue: string, value: string): Word[] => [
  ocrWord('OLD', 2250, 1390, 6),
  ocrWord('FILE', 2265, 1390, 6),
  ocrWord('NO.', 2285, 1390, 6),
  ocrWord(oldValue, 2280, 1405, 12),
  ocrWord('FILE', 2250, 1450, 6),
  ocrWord('NO.', 2270, 1450, 6),
  ocrWord(value, 2280, 1465, 14),
];

const candidatesOf = (words: Word[]) =>
  findNumberCandidates(words, buildLines(words, { gapFactor: 1.5 }), W, H);

describe('numbers without letters', () => {
  it('takes a number in a cell labelled as a number field, never as convincing, and not an old number', () => {
    // Act
    const candidates = candidatesOf(fileNumberColumn('49,096', '87,168'));

    // Assess
    expect(candidates.map((c) => c.printed)).toEqual(['87,168']);
    expect(candidates[0]?.prefix).toBe('');
    expect(candidates[0]?.score).toBeLessThan(GOOD_NUMBER_SCORE);
  });

  it('puts a lettered value under another field label below the labelled number', () => {
    // Prepare: the old file number reads like a sheet number (`L-6964.1`).
    const candidates = candidatesOf(fileNumberColumn('L-6964.1', '87,171'));

    // Assess
    expect(candidates[0]?.printed).toBe('87,171');
    expect(candidates.find((c) => c.printed === 'L-6964.1')?.score).toBeLessThan(candidates[0]?.score ?? 0);
  });

  it('takes no bare number without a label over it, nor one beside a label of another direction', () => {
    // Prepare: `27` of a plot stamp right of the label, and a number far from any label.
    const words = [
      ocrWord('FILE', 2250, 1450, 6),
      ocrWord('NO.', 2270, 1450, 6),
      ocrWord('27', 2385, 1448, 10),
      ocrWord('4417', 1200, 800, 14),
    ];

    // Assess
    expect(candidatesOf(words)).toEqual([]);
  });

  it("gives a set's grouped numbers one separator when OCR read a comma as a period", () => {
    expect(withSetSeparator(['87,168', '87,171', null, '96.607', 'STR-7687'])).toEqual([
      '87,168',
      '87,171',
      null,
      '96,607',
      'STR-7687',
    ]);
    expect(withSetSeparator(['87,168', '96.607'])).toEqual(['87,168', '96.607']);
  });

  it('reads the field under a number label whose value was not read', () => {
    // Prepare: `DRAWING NO.` with its value read, `FILE NO.` without.
    const words = [
      ocrWord('DRAWING', 2250, 1390, 6),
      ocrWord('NO.', 2280, 1390, 6),
      ocrWord('E-101', 2270, 1400, 12),
      ocrWord('FILE', 2250, 1450, 6),
      ocrWord('NO.', 2270, 1450, 6),
    ];

    // Act
    const fields = unreadNumberFields(words);

    // Assess: one field, from the label's top to three label heights under it.
    expect(fields).toHaveLength(1);
    expect(fields[0]?.y0).toBe(1450);
    expect(fields[0]?.y1).toBe(1474);
    expect(fields[0]?.x0).toBeLessThan(2250);
  });
});

describe('OCR words read across lettering of another direction', () => {
  it('sizes a turned pass word wider than tall by its height, and drops an upright word taller than wide', () => {
    // Prepare: pixel boxes, mapped back unchanged.
    const pixels = [
      { text: 'CR-14', confidence: 62, x0: 0, y0: 0, x1: 56, y1: 14 },
      { text: 'SECTIONS', confidence: 90, x0: 0, y0: 0, x1: 10, y1: 80 },
      { text: '27', confidence: 96, x0: 0, y0: 0, x1: 11, y1: 8 },
    ];

    // Act
    const turned = toWords(pixels, (p) => p, 270);
    const upright = toWords(pixels, (p) => p, 0);

    // Assess: two characters are too few to tell.
    expect(turned.map((w) => `${w.text}/${w.dir}/${w.size}`)).toEqual([
      'CR-14/270/14',
      'SECTIONS/270/10',
      '27/270/11',
    ]);
    expect(upright.map((w) => w.text)).toEqual(['CR-14', '27']);
  });

  it('keeps one reading of a word read upright and again, as the same text, by a turned pass', () => {
    // Prepare
    const upright = ocrWord('L-6964.1', 2310, 1410, 12, { confidence: 58 });
    const turned = { ...upright, dir: 270 as const, confidence: 39 };
    const misread = { ...upright, text: 'CR-14', dir: 270 as const };
    const vertical = ocrWord('Drawing', 2400, 1200, 10, { dir: 270, x1: 2410, y1: 1260 });

    // Act
    const merged = mergeOcrWords([upright], [turned, misread, vertical]);

    // Assess
    expect(merged.map((w) => `${w.text}/${w.dir}`)).toEqual(['L-6964.1/0', 'CR-14/270', 'Drawing/270']);
  });

  it("replaces an earlier OCR pass's words in an area read again, and keeps text-layer words and words outside", () => {
    // Prepare: a cell at (100..200, 100..120) the sheet's pass read as `G—` beside a text-layer word; a word
    // read outside it.
    const earlier = ocrWord('G—', 110, 104, 10);
    const printed = wordAt('NOTE', 150, 104, 10);
    const outside = ocrWord('117,471', 210, 104, 10);
    const closer = ocrWord('G-1', 110, 104, 10);

    // Act
    const words = replaceOcrWords([earlier, printed, outside], {
      words: [closer],
      areas: [{ x0: 100, y0: 100, x1: 200, y1: 120 }],
    });

    // Assess
    expect(words.map((w) => w.text)).toEqual(['NOTE', '117,471', 'G-1']);
  });
});

describe('titles of a set of standard plans', () => {
  it('leaves out a sentence of a disclaimer, not a mixed-case title with an abbreviation', () => {
    expect(titleTextOf('Registered Professional Engineer. San Francisco')).toBeNull();
    expect(titleTextOf('Bldg. 28 Finish Plan')).toBe('Bldg. 28 Finish Plan');
    expect(titleTextOf('Second & Third Floor Plan')).toBe('Second & Third Floor Plan');
  });

  it('ranks a line every sheet prints below the sheet’s own title', () => {
    // Prepare: `STANDARD PLAN` on every sheet, each sheet's title under it; the number right of the title.
    const sheets = [
      ['STANDARD PLAN', 'SPEED HUMP'],
      ['STANDARD PLAN', 'CONCRETE BUS PAD'],
      ['STANDARD PLAN', 'DRIVEWAY CONSTRUCTION'],
    ];
    const setWide = onEverySheet(sheets);
    const line = (text: string, y0: number, size: number) => ({
      text,
      box: { x0: 900, y0, x1: 900 + text.length * size * 0.7, y1: y0 + size },
      size,
      labelBonus: 0,
      ocrConfidence: 95,
    });
    const lines = [line('STANDARD PLAN', 700, 8), line('SPEED HUMP', 740, 7)];
    const number = { box: { x0: 1130, y0: 740, x1: 1175, y1: 748 }, size: 7 };

    // Act
    const ranked = rankTitleCandidates(lines, number, (text) => text, setWide);
    const unaware = rankTitleCandidates(lines, number);

    // Assess
    expect(setWide('STANDARD PLAN')).toBe(true);
    expect(setWide('SPEED HUMP')).toBe(false);
    expect(ranked[0]?.text).toBe('SPEED HUMP');
    expect(unaware[0]?.text).toBe('STANDARD PLAN');
  });
});
