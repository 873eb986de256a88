import { PDFDocument } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import {
  assembleDocument,
  extractDocument,
  openPageExtractor,
} from '../../../functions/core/extraction/index.ts';
import { ocrWorkersStarted, terminateOcr } from '../../../functions/core/extraction/ocr.ts';
import { defined } from '../../defined.ts';
import { addSheet } from './fixtures.ts';

describe('OCR of sheets without a text layer', () => {
  it('reads the sheet number and title from an image-only title block', async () => {
    // Prepare: the title block is a picture of text; the page has no text layer at all.
    const doc = await PDFDocument.create();
    await addSheet(doc, { number: 'A-101', title: 'FIRST FLOOR PLAN', imageTitleBlock: true });
    const bytes = await doc.save();

    // Act
    const withoutOcr = await extractDocument(bytes, { ocr: false });
    const result = await extractDocument(bytes, { ocr: 'auto' });

    // Assess
    expect(withoutOcr.pages[0]?.hasTextLayer).toBe(false);
    expect(withoutOcr.sheets[0]?.sheetNumber ?? null).toBeNull();
    const sheet = defined(result.sheets[0], 'a sheet');
    expect(result.pages[0]?.ocr?.used).toBe(true);
    expect(sheet.sheetNumber).toBe('A-101');
    expect(sheet.textSource).toBe('ocr');
    expect(sheet.sheetTitle).toBe('FIRST FLOOR PLAN');
    // The number is in the image's lower part (x 2210..2550, top 1310..1690).
    const numberBox = defined(sheet.sheetNumberBox, 'the sheet number box');
    expect(numberBox.left).toBeGreaterThan(2200);
    expect(numberBox.top).toBeGreaterThan(1450);
    const titleBlock = defined(
      sheet.regions.find((r) => r.regionType === 'titleBlock'),
      'a title block region',
    );
    expect(titleBlock.textSource).toBe('ocr');
    expect(titleBlock.ocrConfidence).toBeGreaterThan(50);
  });

  it('reuses the OCR worker across extractors that keep it, and reads each file right', async () => {
    // Prepare: two files whose title blocks are pictures of different numbers.
    const files = [];
    for (const [number, title] of [
      ['A-101', 'FIRST FLOOR PLAN'],
      ['S-201', 'FOUNDATION PLAN'],
    ] as const) {
      const doc = await PDFDocument.create();
      await addSheet(doc, { number, title, imageTitleBlock: true });
      files.push(await doc.save());
    }
    await terminateOcr();
    const startedBefore = ocrWorkersStarted();

    // Act: one extractor after the other, as a warm function's page batches.
    const numbers = [];
    for (const bytes of files) {
      const extractor = await openPageExtractor(bytes, { keepWarm: true });
      const pages = await extractor.extract({ from: 1, to: 1 });
      await extractor.close();
      numbers.push(assembleDocument(pages, { pageCount: 1, fileName: null }).sheets[0]?.sheetNumber);
    }
    const started = ocrWorkersStarted() - startedBefore;
    await terminateOcr();

    // Assess
    expect(numbers).toEqual(['A-101', 'S-201']);
    expect(started).toBe(1);
  });
});
