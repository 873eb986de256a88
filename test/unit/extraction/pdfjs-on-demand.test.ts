import { PDFDocument } from 'pdf-lib';
import { afterEach, describe, expect, it } from 'vitest';
import { ExtractionError } from '../../../functions/engine/errors.ts';
import { terminateOcr } from '../../../functions/engine/io/ocr.ts';
import { openPdf } from '../../../functions/engine/io/pdf.ts';
import { DEFAULT_LIMITS } from '../../../functions/engine/limits.ts';
import { processPage } from '../../../functions/engine/pages/page.ts';
import { addSheet, drawAt } from './fixtures.ts';

/**
 * A sheet read from its text layer (page 1: general notes, so that its text is not too sparse for its size)
 * and a sheet whose title block is a picture, read by OCR (page 2).
 */
const twoSheets = async (): Promise<Uint8Array> => {
  const doc = await PDFDocument.create();
  await addSheet(doc, {
    number: 'A-101',
    title: 'FIRST FLOOR PLAN',
    extras: (page, font) => {
      for (let row = 0; row < 40; row++) {
        const text = `${row + 1}. VERIFY ALL DIMENSIONS IN FIELD BEFORE STARTING WORK.`;
        drawAt(page, font, { text, x: 80, top: 100 + row * 14, size: 9 });
      }
    },
  });
  await addSheet(doc, { number: 'A-102', title: 'SECOND FLOOR PLAN', imageTitleBlock: true });
  return doc.save();
};

describe('pdf.js parsed only when a page asks for it', () => {
  afterEach(terminateOcr);

  it('reads a text-layer sheet without pdf.js, and a pdf.js failure fails only the page that needed it', async () => {
    // Prepare: PDFium's real document; pdf.js's parse counted, and failing as on a file it cannot read.
    const opened = await openPdf(await twoSheets(), DEFAULT_LIMITS);
    let parses = 0;
    const failingPdfJs = {
      pdfium: opened.pdfium,
      pdfjsDocument: () => {
        parses++;
        return Promise.reject(new ExtractionError('pdf_malformed', 'pdf.js cannot parse this file.'));
      },
    };
    const options = { limits: DEFAULT_LIMITS, ocr: 'auto' as const, ocrBudget: { pagesLeft: 5 } };

    // Act
    const text = await processPage(failingPdfJs, 1, options);
    const parsesAfterTextSheet = parses;
    const outlined = await processPage(failingPdfJs, 2, options);
    await opened.close();

    // Assess
    expect(parsesAfterTextSheet).toBe(0);
    expect(text.issue).toBeNull();
    expect(text.sheet?.numberCandidates[0]?.printed).toBe('A-101');
    expect(parses).toBeGreaterThan(0);
    expect(outlined.pageNumber).toBe(2);
    expect(outlined.issue?.message).toContain('pdf.js cannot parse this file.');
  });
});
