import { PDFDocument } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { assembleDocument, extractDocument, openPageExtractor } from '../../../functions/engine/index.ts';
import { ocrWorkersStarted, terminateOcr, wordsOfTsv } from '../../../functions/engine/io/ocr.ts';
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

describe("tesseract's TSV rows as words", () => {
  it('keeps the word rows with their box and whole-number confidence, and drops the rest', () => {
    // Prepare: a header, a page/block/line row (levels 1-4), words, an empty word and a low-confidence one.
    const tsv = [
      'level\tpage_num\tblock_num\tpar_num\tline_num\tword_num\tleft\ttop\twidth\theight\tconf\ttext',
      '1\t1\t0\t0\t0\t0\t0\t0\t800\t600\t-1\t',
      '4\t1\t1\t1\t1\t0\t10\t20\t300\t30\t-1\t',
      '5\t1\t1\t1\t1\t1\t10\t20\t120\t30\t96.84\tSHEET',
      '5\t1\t1\t1\t1\t2\t140\t21\t60\t29\t91.2\tA-101',
      '5\t1\t1\t1\t1\t3\t210\t20\t10\t30\t88.0\t ',
      '5\t1\t1\t1\t1\t4\t230\t20\t10\t30\t19.99\t~',
      '',
    ].join('\n');

    // Act
    const words = wordsOfTsv(tsv);

    // Assess
    expect(words).toEqual([
      { text: 'SHEET', confidence: 96, x0: 10, y0: 20, x1: 130, y1: 50 },
      { text: 'A-101', confidence: 91, x0: 140, y0: 21, x1: 200, y1: 50 },
    ]);
  });

  it("gives a word of punctuation alone its line's height, and keeps what a lower floor lets through", () => {
    // Prepare: `PLAN - WOOLSEY`, the dash a sliver at mid-height; a word read at confidence 12.
    const tsv = [
      '4\t1\t1\t1\t1\t0\t10\t20\t400\t30\t-1\t',
      '5\t1\t1\t1\t1\t1\t10\t20\t100\t30\t95\tPLAN',
      '5\t1\t1\t1\t1\t2\t120\t33\t12\t4\t90\t-',
      '5\t1\t1\t1\t1\t3\t140\t20\t150\t30\t12\tWOOLSEY',
    ].join('\n');

    // Act
    const words = wordsOfTsv(tsv);
    const all = wordsOfTsv(tsv, 0);

    // Assess
    expect(words).toEqual([
      { text: 'PLAN', confidence: 95, x0: 10, y0: 20, x1: 110, y1: 50 },
      { text: '-', confidence: 90, x0: 120, y0: 20, x1: 132, y1: 50 },
    ]);
    expect(all.map((word) => word.text)).toEqual(['PLAN', '-', 'WOOLSEY']);
  });
});
