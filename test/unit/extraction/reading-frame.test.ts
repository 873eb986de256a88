import { describe, expect, it } from 'vitest';
import {
  boxToDisplay,
  boxToTurned,
  rulingToTurned,
  sheetToDisplay,
  turnGeometry,
  wordToDisplay,
  wordToTurned,
} from '../../../functions/engine/drawings/reading-frame.ts';
import type { SheetPageResult } from '../../../functions/engine/pages/sheets.ts';
import { wordAt } from './fixtures.ts';

/** A portrait page: a landscape 1224 x 792 sheet turned a quarter clockwise onto it. */
const page = { width: 792, height: 1224 };

describe('reading a sheet in a turned frame', () => {
  it('turns the geometry so that user space maps into the turned frame', () => {
    // Prepare: an unrotated page, PDF y up.
    const geometry = { ...page, rotation: 0, transform: [1, 0, 0, -1, 0, 1224] };

    // Act
    const turned = turnGeometry(geometry, 270);

    // Assess: sizes swap; PDF (0, 0) (the page's bottom-left corner) is the turned frame's bottom-right.
    expect([turned.width, turned.height, turned.rotation]).toEqual([1224, 792, 270]);
    const [a = 0, b = 0, c = 0, d = 0, e = 0, f = 0] = turned.transform;
    expect([a * 0 + c * 0 + e, b * 0 + d * 0 + f]).toEqual([1224, 792]);
  });

  it.each([90, 180, 270] as const)('maps boxes and words there and back (turned %i)', (turn) => {
    // Prepare: a word near the page's bottom-left corner, reading down the page.
    const word = wordAt('A-201', 50, 950, 20, { dir: 90 });

    // Act
    const turned = wordToTurned(word, page, turn);
    const back = wordToDisplay(turned, page, turn);

    // Assess: the same box back, and the turned direction reads across in the frame turned 270.
    expect(back).toEqual({
      ...word,
      x0: expect.closeTo(word.x0),
      y0: expect.closeTo(word.y0),
      x1: expect.closeTo(word.x1),
      y1: expect.closeTo(word.y1),
    });
    if (turn === 270) expect(turned.dir).toBe(0);
    const box = boxToTurned({ x0: 10, y0: 20, x1: 30, y1: 60 }, page, turn);
    expect(boxToDisplay(box, page, turn)).toEqual({ x0: 10, y0: 20, x1: 30, y1: 60 });
  });

  it('turns a ruling a quarter onto the other axis', () => {
    // Act: a horizontal ruling across the page's foot, turned 270 (the page's left edge becomes the foot).
    const ruling = rulingToTurned({ axis: 'h', at: 1200, from: 20, to: 772 }, page, 270);

    // Assess: (x, y) -> (y, W - x): a vertical line at x 1200 from y 20 to 772.
    expect(ruling).toEqual({ axis: 'v', at: 1200, from: 20, to: 772 });
  });

  it('places every box of a sheet read turned on the displayed page', () => {
    // Prepare: a sheet read in the frame turned 270 (1224 x 792), its number at the frame's bottom right.
    const numberBox = wordAt('A-201', 1100, 700, 40);
    const sheet: SheetPageResult = {
      width: 1224,
      height: 792,
      numberCandidates: [
        {
          printed: 'A-201',
          prefix: 'A',
          normalized: 'A-201',
          box: numberBox,
          size: 40,
          score: 6,
          source: 'ocr',
          confidence: 90,
        },
      ],
      titleLines: [
        [{ text: 'ROOF PLAN', box: { x0: 950, y0: 600, x1: 1150, y1: 630 }, size: 30, labelBonus: 0 }],
      ],
      titleBlock: { x0: 900, y0: 560, x1: 1204, y1: 772 },
      regions: [],
      drawingAreaIndex: null,
      revisions: [],
      usedOcr: true,
    };

    // Act
    const shown = sheetToDisplay(sheet, page, 270);

    // Assess: the page's size; the title block in the page's bottom-left corner; the number reads down the page.
    expect([shown.width, shown.height, shown.turn]).toEqual([792, 1224, 270]);
    expect(shown.titleBlock).toEqual({ x0: 20, y0: 900, x1: 232, y1: 1204 });
    const box = shown.numberCandidates[0]?.box as typeof numberBox;
    expect(box.dir).toBe(90);
    expect(box.y1 - box.y0).toBeGreaterThan(box.x1 - box.x0);
    expect(shown.titleLines[0]?.[0]?.box).toEqual({ x0: 162, y0: 950, x1: 192, y1: 1150 });
  });
});
