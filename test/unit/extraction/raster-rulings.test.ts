import { describe, expect, it } from 'vitest';
import { rasterRulings, shaveBorders } from '../../../functions/engine/drawings/raster-rulings.ts';

/** A white RGBA bitmap with `ink` pixels painted black. */
const bitmap = (width: number, height: number, ink: (x: number, y: number) => boolean): Uint8Array => {
  const pixels = new Uint8Array(width * height * 4).fill(255);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++)
      if (ink(x, y)) pixels.fill(0, (y * width + x) * 4, (y * width + x) * 4 + 3);
  return pixels;
};

describe('rulings found in a scan', () => {
  it('finds lines of ink, bridges a worn break, chains a skewed line, and ignores lettering strokes', () => {
    // Prepare: 400 x 200 px at 2 px per point from (100, 50) pt: a horizontal line at y=20 with a 2 px break,
    // a line at y=100 drifting down one pixel every 100 px, a vertical line at x=300, and a 10 px stroke.
    const pixels = bitmap(400, 200, (x, y) => {
      if (y === 20 && x >= 10 && x < 390 && !(x >= 200 && x < 202)) return true;
      if (x >= 10 && x < 390 && y === 100 + Math.floor(x / 100)) return true;
      if (x === 300 && y >= 30 && y < 190) return true;
      return y === 150 && x >= 50 && x < 60;
    });

    // Act
    const rulings = rasterRulings(pixels, 400, 200, 2, { x0: 100, y0: 50 }, 20);

    // Assess: lengths of at least 20 pt (40 px); positions in points.
    const horizontal = rulings.filter((ruling) => ruling.axis === 'h').sort((a, b) => a.at - b.at);
    const vertical = rulings.filter((ruling) => ruling.axis === 'v');
    expect(horizontal).toHaveLength(2);
    expect(horizontal[0]).toMatchObject({ from: 105.25, to: 294.75 });
    expect(horizontal[0]?.at).toBeCloseTo(60.25, 1);
    expect(horizontal[1]?.from).toBeCloseTo(105.25, 1);
    expect(horizontal[1]?.to).toBeCloseTo(294.75, 1);
    expect(horizontal[1]?.at).toBeGreaterThan(100.25);
    expect(horizontal[1]?.at).toBeLessThan(102.25);
    expect(vertical).toHaveLength(1);
    expect(vertical[0]).toMatchObject({ at: 250.25, from: 65.25, to: 144.75 });
  });
});

describe("a cell's inside, its borders cut away", () => {
  it('cuts a border line drawn a few pixels inside each side, and keeps a letter beside it', () => {
    // Prepare: a cell of 100 x 40 px at (10, 10). Its left border is 3 px wide at x 11-13, its top border at
    // y 12, its right border at x 108; no bottom border. A letter's stem runs at x 16 over half the height.
    const pixels = bitmap(120, 60, (x, y) => {
      const inCell = x >= 10 && x < 110 && y >= 10 && y < 50;
      if (!inCell) return false;
      if (x >= 11 && x <= 13) return true;
      if (y === 12 || x === 108) return true;
      return x === 16 && y >= 20 && y < 40;
    });

    // Act
    const inside = shaveBorders(
      { data: new Uint8ClampedArray(pixels.buffer), width: 120 },
      { x0: 10, y0: 10, x1: 110, y1: 50 },
      6,
    );

    // Assess: past each border and one pixel more; the stem at x 16 and the bottom stay.
    expect(inside).toEqual({ x0: 15, y0: 14, x1: 107, y1: 50 });
  });
});
