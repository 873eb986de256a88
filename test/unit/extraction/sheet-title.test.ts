import { describe, expect, it } from 'vitest';
import type { NumberCandidate } from '../../../functions/engine/drawings/number-candidates.ts';
import {
  findTitleLines,
  rankTitleCandidates,
  titleTextOf,
} from '../../../functions/engine/drawings/sheet-title.ts';
import type { Line, Word } from '../../../functions/engine/geometry.ts';

/** One OCR line at (x, y) on a 2448 x 1584 sheet. */
const line = (text: string, x: number, y: number, size: number, confidence: number): Line => {
  const word: Word = {
    text,
    x0: x,
    y0: y,
    x1: x + text.length * size * 0.6,
    y1: y + size,
    size,
    dir: 0,
    font: 'ocr',
    source: 'ocr',
    confidence,
  };
  return { ...word, words: [word], text, size, dir: 0 };
};

const number: NumberCandidate = {
  printed: 'CR-10',
  prefix: 'CR',
  normalized: 'CR-10',
  box: { x0: 2300, y0: 1440, x1: 2380, y1: 1455 },
  size: 14,
  score: 8,
  source: 'ocr',
  confidence: 90,
};

describe('sheet title lines', () => {
  it('leaves out misread field labels, numbered fields and plotter paths', () => {
    const lines = [
      line('DRAWING Mo', 2200, 1420, 8, 78),
      line('HYD PROJECT NO. 10701', 2200, 1400, 8, 90),
      line('wo. V:\\2977J', 2100, 1380, 12, 56),
      line('CURB RAMP DETAILS', 2000, 1450, 14, 95),
    ];
    const texts = findTitleLines(lines, number, null, 2448, 1584).map((l) => l.text);
    expect(texts).toEqual(['CURB RAMP DETAILS']);
  });

  it('ranks a large fragment read with low confidence below a clear title', () => {
    const lines = [line('TAR', 2250, 1380, 28, 30), line('LEGEND AND ABBREVIATIONS', 2000, 1450, 14, 96)];
    const titleLines = findTitleLines(lines, number, null, 2448, 1584);
    expect(rankTitleCandidates(titleLines, number)[0]?.text).toBe('LEGEND AND ABBREVIATIONS');
  });

  it("leaves out a professional's name from the seal and the firm's postal address", () => {
    // Prepare
    const lines = [
      line('Fernando Cisneros', 2150, 1300, 16, 92),
      line('2042 Barber Dr.', 2150, 1340, 10, 90),
      line('WOOLSEY STREET AT COLBY STREET', 2000, 1430, 14, 94),
      line('CURB RAMP DETAILS', 2000, 1450, 14, 95),
    ];

    // Act
    const texts = findTitleLines(lines, number, null, 2448, 1584).map((l) => l.text);

    // Assess
    expect(texts).toEqual(['WOOLSEY STREET AT COLBY STREET', 'CURB RAMP DETAILS']);
  });

  it('joins the pieces of one title row that OCR split at a long dash', () => {
    // Prepare
    const lines = [
      line('EXISTING TRAFFIC STRIPING', 1890, 1420, 14, 95),
      line('WOOLSEY ST.', 1810, 1441, 14, 95),
      line('UNIVERSITY ST. TO HAMILTON ST.', 1940, 1441, 14, 95),
    ];
    const titleLines = findTitleLines(lines, number, null, 2448, 1584);

    // Act
    const best = rankTitleCandidates(titleLines, number)[0];

    // Assess
    expect(best?.text).toBe('EXISTING TRAFFIC STRIPING WOOLSEY ST. UNIVERSITY ST. TO HAMILTON ST.');
  });

  it('leaves off the cell borders OCR reads at line ends and drops field labels read with a slip', () => {
    // Prepare
    const lines = [
      line('|CONTRACT ID.', 2300, 1400, 8, 91),
      line('FILE_NO.', 2300, 1460, 8, 55),
      line('DRATING', 2300, 1426, 8, 70),
      line('JRC No', 2300, 1480, 8, 80),
      line('[PAVEMENT PLAN', 1940, 1465, 14, 90),
    ];

    // Act
    const texts = findTitleLines(lines, number, null, 2448, 1584).map((l) => l.text);

    // Assess
    expect(texts).toEqual(['PAVEMENT PLAN']);
  });

  it('keeps the more confident of two readings of the same lettering, and the longer of two alike', () => {
    // Prepare
    const lines = [
      line('are ran', 2000, 1420, 14, 59),
      line('SITE PLAN', 2000, 1420, 14, 96),
      line('RSET', 2100, 1450, 14, 96),
      line('WOOLSEY STREET AT SOMERSET STREET', 1900, 1450, 14, 95),
    ];
    const titleLines = findTitleLines(lines, number, null, 2448, 1584);

    // Act
    const texts = rankTitleCandidates(titleLines, number).map((candidate) => candidate.text);

    // Assess
    expect(texts.sort()).toEqual(['SITE PLAN', 'WOOLSEY STREET AT SOMERSET STREET']);
  });

  it('leaves out text broken into stray letters or made mostly of marks and digits, not titles with single letters', () => {
    expect(titleTextOf('HYD P OJECT N . 10701')).toBeNull();
    expect(titleTextOf('“PRA "121.464 re')).toBeNull();
    expect(titleTextOf('LOWER GREAT HIGHWAY TO MATCHLINE "B"')).toBe('LOWER GREAT HIGHWAY TO MATCHLINE "B"');
    expect(titleTextOf('SECTION A-A AND B')).toBe('SECTION A-A AND B');
    expect(titleTextOf('46TH AVENUE')).toBe('46TH AVENUE');
  });

  it('takes a title printed up the title strip when no line across it names a kind of drawing', () => {
    // Prepare: the number across the strip's foot, a field value beside it, the title running up the strip.
    const strip = { x0: 2250, y0: 100, x1: 2440, y1: 1570 };
    const up = line('DETAILS', 2400, 1000, 20, 92);
    const upright: typeof up = { ...up, dir: 270, x1: up.x0 + 20, y1: up.y0 + 90 };
    const lines = [line('Drawn TPY', 2300, 1420, 10, 90), upright];

    // Act
    const texts = findTitleLines(lines, number, strip, 2448, 1584).map((l) => l.text);

    // Assess
    expect(texts).toEqual(['DETAILS']);
  });
});
