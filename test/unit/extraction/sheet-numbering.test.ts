import { describe, expect, it } from 'vitest';
import type { NumberCandidate } from '../../../functions/engine/drawings/number-candidates.ts';
import { parseSheetNumber } from '../../../functions/engine/drawings/sheet-number.ts';
import {
  chooseSheetNumbers,
  type NumberingPage,
  type SetNumber,
  withOcrDigits,
  withSetHeads,
} from '../../../functions/engine/drawings/sheet-numbering.ts';

/** A candidate read by OCR at (x, y) on a 1224 x 792 sheet. */
const candidate = (text: string, x: number, y: number, score: number, confidence = 90): NumberCandidate => {
  const parsed = parseSheetNumber(text);
  if (!parsed) throw new Error(`not a sheet number: ${text}`);
  return {
    ...parsed,
    box: { x0: x, y0: y, x1: x + 30, y1: y + 10 },
    size: 10,
    score,
    source: 'ocr',
    confidence,
  };
};

const page = (pageNumber: number, ...candidates: NumberCandidate[]): NumberingPage => ({
  pageNumber,
  width: 1224,
  height: 792,
  candidates,
});

const printedOf = (pages: NumberingPage[]): Array<string | null> =>
  chooseSheetNumbers(pages).map((choice, i) => {
    if (choice.kind === 'inferred') return `~${choice.printed}`;
    if (choice.kind === 'candidate') return pages[i]?.candidates[choice.index]?.printed ?? null;
    return null;
  });

describe('set-level sheet numbers', () => {
  it('fills sheets without a convincing number from an unbroken run around them', () => {
    // Prepare: A4 was misread (low confidence), A5 read with a stray letter; A3 and A6 frame the run.
    const pages = [
      page(3, candidate('A3', 1130, 723, 8.5)),
      page(4, candidate('SNY1d', 1128, 676, 6.6, 31)),
      page(5, candidate('AS5', 1129, 723, 9.3, 56)),
      page(6, candidate('A6', 1130, 723, 8.4)),
    ];
    // Act / Assess
    expect(printedOf(pages)).toEqual(['A3', '~A4', '~A5', 'A6']);
  });

  it('does not infer across a run that skips or repeats numbers', () => {
    const pages = [
      page(1, candidate('SW-1', 1064, 744, 6)),
      page(2),
      page(3, candidate('SW-1', 1064, 744, 6)),
    ];
    expect(printedOf(pages)).toEqual(['SW-1', null, 'SW-1']);
  });

  it('drops a value printed in the same place on three sheets (a contract number)', () => {
    const pages = [
      page(1, candidate('SW-1', 1064, 744, 6), candidate('WW-684', 1109, 604, 3)),
      page(2, candidate('WW-684', 1109, 604, 8.8)),
      page(3, candidate('SW-7', 1065, 747, 5.4), candidate('WW-684', 1110, 606, 2)),
    ];
    expect(printedOf(pages)).toEqual(['SW-1', null, 'SW-7']);
  });

  it('keeps a sheet number that other sheets reference from one place', () => {
    // Each sheet prints its own number in the title block and a callout to A-301 in the same spot.
    const pages = [6, 7, 8].map((n) =>
      page(n, candidate(`A-30${n - 5}`, 986, 716, 7.8), candidate('A-301', 744, 54, 1.2)),
    );
    expect(printedOf(pages)).toEqual(['A-301', 'A-302', 'A-303']);
  });

  it('prefers, of two readings in one place, the prefix other sheets carry', () => {
    const pages = [
      page(1, candidate('PR-5', 700, 546, 6)),
      page(2, candidate('R-1', 1088, 767, 8.26, 90), candidate('PR-1', 1082, 767, 8.26, 92)),
    ];
    expect(printedOf(pages)).toEqual(['PR-5', 'PR-1']);
  });

  it('takes a number without letters only in a set that does not number its sheets with letters', () => {
    // Prepare: a file number (`117,496`, labelled, never convincing) beside a misread lettered number.
    const fileNumber = (text: string): NumberCandidate => ({
      printed: text,
      prefix: '',
      normalized: text,
      box: { x0: 1100, y0: 700, x1: 1140, y1: 710 },
      size: 10,
      score: 4.9,
      source: 'ocr',
      confidence: 95,
    });
    const lettered = [
      page(1, candidate('CR-12', 1150, 740, 8)),
      page(2, candidate('CR-14', 1150, 740, 3, 50), fileNumber('117,496')),
      page(3, candidate('CR-15', 1150, 740, 8)),
    ];
    const standardPlans = [
      page(1, fileNumber('87,168')),
      page(2, fileNumber('87,171')),
      page(3, candidate('STR-7687', 1150, 740, 8)),
    ];

    // Act
    const inLetteredSet = printedOf(lettered);
    const inStandardPlans = printedOf(standardPlans);

    // Assess
    expect(inLetteredSet).toEqual(['CR-12', 'CR-14', 'CR-15']);
    expect(inStandardPlans).toEqual(['87,168', '87,171', 'STR-7687']);
  });

  it('takes no reading with nothing in its favour as a sheet number', () => {
    // Prepare: a spot elevation read with its leader (`L868`) is the only candidate of its sheet.
    const pages = [
      page(1, candidate('L868', 700, 600, -0.12, 55)),
      page(2, candidate('C-1', 1150, 740, 0.5)),
    ];

    // Act
    const printed = printedOf(pages);

    // Assess
    expect(printed).toEqual([null, 'C-1']);
  });
});

describe("a set's own numbering repairs OCR readings", () => {
  const number = (printed: string, prefix: string, ocr: boolean, head: string[] = []): SetNumber => ({
    printed,
    prefix,
    ocr,
    head,
  });

  it('reads a letter after the prefix as a digit when the set gives the shorter prefix to more sheets', () => {
    // Prepare: DW07 read as DWO7 and DW11 as DWI1 by OCR; the set's other sheets carry DW.
    const numbers = [
      number('DW06', 'DW', true),
      number('DWO7', 'DWO', true),
      number('DW08', 'DW', true),
      number('DWI1', 'DWI', true),
      number('DW12', 'DW', true),
      number('DWO7', 'DWO', false),
    ];

    // Act
    const repaired = withOcrDigits(numbers).map((entry) => entry?.printed);

    // Assess: the text layer's reading is left as printed.
    expect(repaired).toEqual(['DW06', 'DW07', 'DW08', 'DW11', 'DW12', 'DWO7']);
  });

  it('gives the head the set prints to a tail read alone, after that head or like its tails', () => {
    // Prepare: three text-layer numbers `4977_S_…`; OCR read `4977 S DW08` (the underscores as spaces) and a
    // `DW09` without its head; `A-101` and `X7` share nothing with the set's tails.
    const numbers = [
      number('4977_S_DW01', 'S', false),
      number('4977_S_DW02', 'S', false),
      number('4977_S_DE01', 'S', false),
      number('DW08', 'DW', true, ['4977', 'S']),
      number('DW09', 'DW', true),
      number('XY7', 'XY', true),
      null,
    ];

    // Act
    const withHeads = withSetHeads(numbers);

    // Assess
    expect(withHeads.map((entry) => entry?.printed ?? null)).toEqual([
      '4977_S_DW01',
      '4977_S_DW02',
      '4977_S_DE01',
      '4977_S_DW08',
      '4977_S_DW09',
      'XY7',
      null,
    ]);
    expect(withHeads[3]?.prefix).toBe('S');
  });

  it('leaves tails alone in a set that shares no head on most of its several-part numbers', () => {
    // Prepare: two heads, one sheet each.
    const numbers = [
      number('4977_S_DW01', 'S', false),
      number('5120-A-101', 'A', false),
      number('DW08', 'DW', true, ['4977', 'S']),
    ];

    // Act
    const withHeads = withSetHeads(numbers);

    // Assess
    expect(withHeads.map((entry) => entry?.printed)).toEqual(['4977_S_DW01', '5120-A-101', 'DW08']);
  });
});
