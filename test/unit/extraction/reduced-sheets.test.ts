import { PDFDocument, StandardFonts } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { extractPages } from '../../../functions/engine/index.ts';
import { renderTextImage } from './fixtures.ts';

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

  it('scanned without a sheet number is read whole by OCR, so that its text can be searched', async () => {
    // Prepare: a scanned leaflet turned sideways, its text in the upper left, no title block.
    const doc = await PDFDocument.create();
    const page = doc.addPage([792, 612]);
    const scan = await doc.embedPng(
      renderTextImage(
        [
          { text: 'TOW-AWAY SIGN ACTIVATION', size: 22 },
          { text: 'AND PHOTO UPLOAD PROCESS', size: 22 },
        ],
        420,
        90,
      ),
    );
    page.drawImage(scan, { x: 40, y: 480, width: 420, height: 90 });

    // Act
    const { pages } = await extractPages(await doc.save(), { ocr: 'auto' });

    // Assess: read as a sheet (OCR on), and its words beyond a title block's were read too.
    const text = (pages[0]?.lines ?? []).map((line) => line.text).join(' ');
    expect(pages[0]?.sheet).not.toBeNull();
    expect(text).toContain('TOW-AWAY SIGN ACTIVATION');
    expect(text).toContain('PHOTO UPLOAD PROCESS');
  });
});
