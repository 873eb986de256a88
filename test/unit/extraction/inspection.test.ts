import { PDFDocument, StandardFonts } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { inspectPdf } from '../../../functions/engine/index.ts';
import { LETTER, renderTextImage } from './fixtures.ts';

describe('inspection of a PDF before extraction', () => {
  it('names the pages that print no text: scans and blank pages, not text drawn inside a form', async () => {
    // Prepare: text; a scanned picture of text; the first page drawn as a form; a blank page.
    const doc = await PDFDocument.create();
    const font = await doc.embedFont(StandardFonts.Helvetica);
    const textPage = doc.addPage(LETTER);
    textPage.drawText('SECTION 07 55 00 ROOFING', { x: 72, y: 700, size: 12, font });
    const scan = await doc.embedPng(renderTextImage([{ text: 'SCANNED PAGE', size: 20 }], 300, 60));
    doc.addPage(LETTER).drawImage(scan, { x: 72, y: 600, width: 300, height: 60 });
    const form = await doc.embedPage(textPage);
    doc.addPage(LETTER).drawPage(form, { x: 0, y: 0 });
    doc.addPage(LETTER);

    // Act
    const inspection = await inspectPdf(await doc.save());

    // Assess
    expect(inspection).toMatchObject({ kind: 'pdf', pageCount: 4, largePages: 0, pagesWithoutText: [2, 4] });
  });
});
