import { describe, expect, it } from 'vitest';
import { extractDocument, extractPages } from '../../../functions/engine/index.ts';
import { defined } from '../../defined.ts';
import { outlinedSheetPdf } from '../../fixtures/pdfs.ts';

describe('a landscape sheet placed sideways on a portrait page without a text layer', () => {
  it('is read in the frame where it stands upright, its boxes on the page as displayed', async () => {
    // Prepare: an outlined sheet turned a quarter clockwise onto a 11 x 17 portrait page (no /Rotate).
    const bytes = await outlinedSheetPdf('A-201', 'ROOF PLAN', 'ZENITH LIFT', { sideways: true });

    // Act
    const result = await extractDocument(bytes, { ocr: 'auto' });

    // Assess: number and title read; the number's box lies where the turned title block lands (bottom left).
    const page = defined(result.pages[0], 'the page');
    expect([page.width, page.height]).toEqual([792, 1224]);
    const sheet = defined(result.sheets[0], 'a sheet');
    expect(sheet.sheetNumber).toBe('A-201');
    expect(sheet.sheetTitle).toBe('ROOF PLAN');
    const numberBox = defined(sheet.sheetNumberBox, 'the sheet number box');
    expect(numberBox.right).toBeLessThan(792 / 2);
    expect(numberBox.top).toBeGreaterThan(1224 / 2);
    // Lettering that runs down the page makes a box taller than wide.
    expect(numberBox.bottom - numberBox.top).toBeGreaterThan(numberBox.right - numberBox.left);
    // The drawing area is read too, in the same frame: the note (printed near the sheet's top-left corner, so
    // near the page's top-right one) is a text line there, its box running down the page.
    const pages = await extractPages(bytes, { ocr: 'auto' });
    const note = defined(
      pages.pages[0]?.lines.find((line) => line.text.includes('ZENITH')),
      'a text line with the note',
    );
    expect(note.x0).toBeGreaterThan(792 / 2);
    expect(note.y1).toBeLessThan(1224 / 2);
    expect(note.y1 - note.y0).toBeGreaterThan(note.x1 - note.x0);
  }, 120_000);
});
