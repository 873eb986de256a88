import { describe, expect, it } from 'vitest';
import type { Ruling } from '../../../functions/engine/io/rulings.ts';
import { aroundNumber } from '../../../functions/engine/pages/title-block-ocr.ts';

/** A bottom band across a 2448 pt sheet, 140 pt tall, with the number near its right end. */
const band = { x0: 107, y0: 1388, x1: 2376, y1: 1528 };
const number = { x0: 2300, y0: 1438, x1: 2335, y1: 1452 };
const border = (at: number, from = band.y0, to = band.y1): Ruling => ({ axis: 'v', at, from, to });

describe('the part of a title band read once the number is known', () => {
  it('starts at the cell border nearest 30 % of the page left of the number', () => {
    // Prepare: borders of the band's cells; one short stroke (lettering) nearer the target.
    const borders = [border(450), border(1100), border(1500), border(1600, 1440, 1460), border(1700)];

    // Act
    const read = aroundNumber(band, number, borders, 2448);

    // Assess: the target is 2300 - 734 = 1566; the stroke spans too little of the band to be a border.
    expect(read).toEqual({ ...band, x0: 1499 });
  });

  it('reads the whole band without a border to cut at, and any block narrower than half the page whole', () => {
    expect(aroundNumber(band, number, [], 2448)).toEqual(band);
    const block = { x0: 1800, y0: 1200, x1: 2376, y1: 1528 };
    expect(aroundNumber(block, number, [border(1900, 1200, 1528)], 2448)).toEqual(block);
  });
});
