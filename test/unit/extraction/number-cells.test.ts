import { describe, expect, it } from 'vitest';
import { findNumberCandidates } from '../../../functions/engine/drawings/number-candidates.ts';
import { parseSheetNumber } from '../../../functions/engine/drawings/sheet-number.ts';
import type { Ruling } from '../../../functions/engine/io/rulings.ts';
import { buildLines } from '../../../functions/engine/layout.ts';
import { cellAt } from '../../../functions/engine/pages/ocr-cells.ts';
import { numberCellsOf } from '../../../functions/engine/pages/title-block-ocr.ts';
import { defined } from '../../defined.ts';
import { wordAt as word } from './fixtures.ts';

const h = (at: number, from: number, to: number): Ruling => ({ axis: 'h', at, from, to });
const v = (at: number, from: number, to: number): Ruling => ({ axis: 'v', at, from, to });

/** A 3-row title-block column at x 2265..2375 (rows 1388/1422/1457/1528) inside a 2448 x 1584 sheet. */
const column: Ruling[] = [
  h(1388, 2265, 2375),
  h(1422, 2265, 2375),
  h(1457, 2265, 2375),
  h(1528, 2265, 2375),
  v(2265, 1388, 1528),
  v(2375, 1388, 1528),
];

describe('ruled cells for the sheet-number OCR pass', () => {
  it('finds the cell around a point from its four borders', () => {
    expect(cellAt(2320, 1440, column)).toEqual({ x0: 2265, y0: 1422, x1: 2375, y1: 1457 });
    expect(cellAt(2320, 1500, column)).toEqual({ x0: 2265, y0: 1457, x1: 2375, y1: 1528 });
    expect(cellAt(2200, 1440, column)).toBeNull();
  });

  it('ignores strokes of outlined lettering inside the cell', () => {
    // Prepare: a dash (horizontal) and a letter stem (vertical) drawn as lines inside the middle cell.
    const strokes = [...column, h(1445, 2310, 2330), v(2300, 1430, 1450)];

    // Act
    const below = cellAt(2320, 1450, strokes);
    const right = cellAt(2340, 1440, strokes);

    // Assess
    expect(below).toEqual({ x0: 2265, y0: 1422, x1: 2375, y1: 1457 });
    expect(right).toEqual({ x0: 2265, y0: 1422, x1: 2375, y1: 1457 });
  });

  it('lists the cell holding a sheet-number label first, then the corner cells, and skips large areas', () => {
    // Prepare: the drawing frame (large cells) and the title-block column; a DRAWING NO. label in row 2.
    const frame = [h(40, 40, 2408), h(1544, 40, 2408), v(40, 40, 1544), v(2408, 40, 1544)];
    const rulings = [...frame, ...column, h(1528, 2265, 2408), v(2375, 1528, 1544)];
    const words = [word('DRAWING', 2269, 1425, 6), word('NO.', 2315, 1425, 6)];

    // Act
    const cells = numberCellsOf(words, rulings, 2448, 1584);

    // Assess
    expect(cells[0]).toEqual({ x0: 2265, y0: 1422, x1: 2375, y1: 1457 });
    expect(cells).toContainEqual({ x0: 2265, y0: 1457, x1: 2375, y1: 1528 });
    expect(cells.every((c) => (c.x1 - c.x0) * (c.y1 - c.y0) < 2448 * 1584 * 0.006)).toBe(true);
    expect(new Set(cells.map((c) => JSON.stringify(c))).size).toBe(cells.length);
  });

  it('finds nothing without ruled cells', () => {
    expect(numberCellsOf([word('SHEET', 2300, 1500, 8)], [], 2448, 1584)).toEqual([]);
  });
});

describe('sheet-number candidates', () => {
  it('reads an OCR dash run as one hyphen', () => {
    expect(parseSheetNumber('R\u2014-G1')?.normalized).toBe('R-G1');
    expect(parseSheetNumber('T\u2014 1')).toBeNull();
  });

  it('does not take the number from a reference to another sheet', () => {
    // Prepare: the title block prints T-1; a note near the corner says SEE SHEET T-2.
    const words = [
      word('SEE', 2150, 1300, 12),
      word('SHEET', 2180, 1300, 12),
      word('T-2', 2230, 1300, 12),
      word('DRAWING', 2269, 1425, 6),
      word('NO.', 2315, 1425, 6),
      word('T-1', 2300, 1438, 12),
      word('GENERAL', 400, 400, 8),
      word('NOTES', 460, 400, 8),
    ];

    const plain = words.map((w) => (w.text === 'SEE' ? { ...w, text: 'NEW' } : w));

    // Act
    const cands = findNumberCandidates(words, buildLines(words, { gapFactor: 1.5 }), 2448, 1584);
    const plainCands = findNumberCandidates(plain, buildLines(plain, { gapFactor: 1.5 }), 2448, 1584);

    // Assess
    expect(cands[0]?.printed).toBe('T-1');
    const ref = defined(
      cands.find((c) => c.printed === 'T-2'),
      'T-2 among the candidates',
    );
    const notRef = defined(
      plainCands.find((c) => c.printed === 'T-2'),
      'T-2 among the plain candidates',
    );
    expect(ref.score).toBeCloseTo(notRef.score - 3, 5);
  });
});
