import { PDFDocument, StandardFonts } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { extractPages } from '../../../functions/core/extraction/index.ts';

/** A letter page turned sideways (792 x 612) with a drawing's border and title-block rulings, and `texts`. */
const sidewaysLetterPage = async (texts: { text: string; x: number; y: number }[]): Promise<Uint8Array> => {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const page = doc.addPage([792, 612]);
  page.drawRectangle({ x: 20, y: 20, width: 752, height: 572, borderWidth: 1 });
  page.drawRectangle({ x: 640, y: 20, width: 132, height: 572, borderWidth: 1 });
  for (const { text, x, y } of texts) page.drawText(text, { x, y, size: 7, font });
  return doc.save();
};

describe('a letter page turned sideways', () => {
  it('with sparse text is read as a sheet shrunk to fit, OCR off', async () => {
    // Prepare: a title block's few words, as on a sheet printed onto letter paper.
    const bytes = await sidewaysLetterPage([
      { text: 'FIRST FLOOR PLAN', x: 650, y: 120 },
      { text: 'SHEET', x: 650, y: 60 },
      { text: 'A-101', x: 650, y: 40 },
    ]);

    // Act
    const { pages } = await extractPages(bytes, { ocr: false });

    // Assess
    expect(pages[0]?.sheet).not.toBeNull();
  });

  it('without any text and with OCR off is not analyzed as a sheet: nothing on it says it is one', async () => {
    // Prepare
    const bytes = await sidewaysLetterPage([]);

    // Act
    const { pages } = await extractPages(bytes, { ocr: false });

    // Assess
    expect(pages[0]).toMatchObject({ pageNumber: 1, hasTextLayer: false, sheet: null, issue: null });
  });
});
