import { PDFDocument, StandardFonts } from 'pdf-lib';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS } from '../../../functions/engine/index.ts';
import { readPdfiumWords } from '../../../functions/engine/io/text.ts';
import { freeWarmDocument, openWarmDocument } from '../../../functions/engine/io/warm-document.ts';
import { LETTER } from './fixtures.ts';

const onePageFile = async (text: string): Promise<Uint8Array> => {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  doc.addPage(LETTER).drawText(text, { x: 72, y: 700, size: 12, font });
  return doc.save();
};

describe('the document kept open between extractors of a thread', () => {
  afterEach(freeWarmDocument);

  it('is reused for the same file, and freed when another file is opened', async () => {
    // Prepare
    const first = await onePageFile('SECTION 01 10 00');
    const second = await onePageFile('SECTION 02 20 00');

    // Act
    const opening = await openWarmDocument(first, DEFAULT_LIMITS);
    await opening.release();
    const again = await openWarmDocument(new Uint8Array(first), DEFAULT_LIMITS);
    await again.release();
    const other = await openWarmDocument(second, DEFAULT_LIMITS);
    await other.release();

    // Assess
    expect(again.opened).toBe(opening.opened);
    expect(opening.opened.pdfium.closed).toBe(true);
    expect(other.opened).not.toBe(opening.opened);
    expect(other.opened.pdfium.closed).toBe(false);
  });

  it('is never freed while an extractor still uses it: the other file is opened beside it', async () => {
    // Prepare
    const first = await onePageFile('SECTION 01 10 00');
    const second = await onePageFile('SECTION 02 20 00');
    const inUse = await openWarmDocument(first, DEFAULT_LIMITS);

    // Act
    const beside = await openWarmDocument(second, DEFAULT_LIMITS);
    const page = inUse.opened.pdfium.page(1);
    const text = readPdfiumWords(page, 10_000)
      .words.map((word) => word.text)
      .join(' ');
    page.close();
    await beside.release();
    await inUse.release();

    // Assess
    expect(inUse.opened.pdfium.closed).toBe(false);
    expect(beside.opened.pdfium.closed).toBe(true);
    expect(text).toContain('01 10 00');
  });
});
