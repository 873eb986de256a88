import { degrees, PDFDocument, rgb, StandardFonts } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { turnGeometry } from '../../../functions/engine/drawings/reading-frame.ts';
import { isExtractionError } from '../../../functions/engine/errors.ts';
import { openPdf, pageGeometry } from '../../../functions/engine/io/pdf.ts';
import { PdfiumDocument } from '../../../functions/engine/io/pdfium.ts';
import { renderBox } from '../../../functions/engine/io/pdfium-render.ts';
import { renderPdfiumRegion, renderRegion } from '../../../functions/engine/io/render.ts';
import { readPdfiumWords } from '../../../functions/engine/io/text.ts';
import { DEFAULT_LIMITS } from '../../../functions/engine/limits.ts';
import { encryptedPdf, LETTER, truncate } from './fixtures.ts';

/**
 * A letter page, turned by `rotate` and cut by a CropBox from (36, 36), with `DRAWING` at 20 pt and a `2`
 * at 10 pt raised after it (a superscript) at PDF (100, 600), `NOTES` written upwards at PDF (500, 200), and
 * a black 50 x 20 pt block at PDF (100, 100).
 */
const markedPage = async (rotate: 0 | 90 | 180 | 270): Promise<Uint8Array> => {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const page = doc.addPage(LETTER);
  page.setCropBox(36, 36, 540, 720);
  page.setRotation(degrees(rotate));
  page.drawText('DRAWING', { x: 100, y: 600, size: 20, font });
  page.drawText('2', { x: 100 + font.widthOfTextAtSize('DRAWING', 20), y: 610, size: 10, font });
  page.drawText('NOTES', { x: 500, y: 200, size: 12, font, rotate: degrees(90) });
  page.drawRectangle({ x: 100, y: 100, width: 50, height: 20, color: rgb(0, 0, 0) });
  return doc.save();
};

const helvetica = async () => (await PDFDocument.create()).embedFont(StandardFonts.Helvetica);

/** A point of PDF user space in display space. */
const toDisplay = (transform: readonly number[], x: number, y: number): [number, number] => {
  const [a = 0, b = 0, c = 0, d = 0, e = 0, f = 0] = transform;
  return [a * x + c * y + e, b * x + d * y + f];
};

describe('PDFium I/O layer', () => {
  it.each([0, 90, 180, 270] as const)(
    'maps user space to the displayed page as pdf.js does (/Rotate %i, CropBox)',
    async (rotate) => {
      // Prepare
      const bytes = await markedPage(rotate);
      const opened = await openPdf(bytes, DEFAULT_LIMITS);
      const pdfjsPage = await (await opened.pdfjsDocument()).doc.getPage(1);
      const page = opened.pdfium.page(1);

      // Act
      const expected = pageGeometry(pdfjsPage);
      const { geometry } = page;
      page.close();
      await opened.close();

      // Assess
      expect(geometry.rotation).toBe(rotate);
      expect(geometry.width).toBeCloseTo(expected.width, 2);
      expect(geometry.height).toBeCloseTo(expected.height, 2);
      geometry.transform.forEach((value, index) => {
        expect(value).toBeCloseTo(expected.transform[index] ?? Number.NaN, 2);
      });
    },
  );

  it('reads lettering printed with its letters spaced out as words, and words a space apart as words', async () => {
    // Prepare: `DRAWING TITLE` and `4977_S_DE03` drawn a letter at a time with spacing between them, as CAD
    // programs export spaced lettering (PDFium puts a space in every gap), and `3 @ 12 = 36` set with word spaces.
    const doc = await PDFDocument.create();
    const font = await doc.embedFont(StandardFonts.Helvetica);
    const page = doc.addPage(LETTER);
    const spaced = (text: string, y: number): void => {
      let x = 72;
      for (const char of text) {
        if (char !== ' ') page.drawText(char, { x, y, size: 9, font });
        x += (char === ' ' ? 3.5 : font.widthOfTextAtSize(char, 9)) + 1.5;
      }
    };
    spaced('DRAWING TITLE', 700);
    spaced('4977_S_DE03', 650);
    page.drawText('3 @ 12 = 36', { x: 72, y: 600, size: 9, font });
    const document = await PdfiumDocument.open(await doc.save());
    const pdfiumPage = document.page(1);

    // Act
    const { words } = readPdfiumWords(pdfiumPage, 10_000);
    pdfiumPage.close();
    document.close();

    // Assess
    expect(words.map((word) => word.text)).toEqual([
      'DRAWING',
      'TITLE',
      '4977_S_DE03',
      '3',
      '@',
      '12',
      '=',
      '36',
    ]);
  });

  it.each([0, 90, 270] as const)(
    'reads words with display boxes, sizes and directions (/Rotate %i)',
    async (rotate) => {
      // Prepare
      const document = await PdfiumDocument.open(await markedPage(rotate));
      const page = document.page(1);
      const { transform } = page.geometry;
      const advance = (await helvetica()).widthOfTextAtSize('DRAWING', 20);

      // Act
      const { words, charCount } = readPdfiumWords(page, 10_000);
      page.close();
      document.close();

      // Assess: the superscript is a word of its own.
      expect(words.map((word) => word.text).sort()).toEqual(['2', 'DRAWING', 'NOTES']);
      expect(charCount).toBe(13);
      const drawing = words.find((word) => word.text === 'DRAWING');
      const notes = words.find((word) => word.text === 'NOTES');
      expect(drawing?.size).toBeCloseTo(20, 1);
      expect(drawing?.font).toMatch(/Helvetica/);
      expect(notes?.size).toBeCloseTo(12, 1);
      // Text upright on the page reads at the page's turn; text written upwards, a quarter turn before it.
      expect(drawing?.dir).toBe(rotate);
      expect(notes?.dir).toBe((rotate + 270) % 360);
      // The box holds the baseline's start, runs the word's advance along the reading direction and about a
      // font size across it.
      const box = drawing ?? { x0: 0, y0: 0, x1: 0, y1: 0 };
      const [originX, originY] = toDisplay(transform, 100, 600);
      expect(originX).toBeGreaterThan(box.x0 - 0.5);
      expect(originX).toBeLessThan(box.x1 + 0.5);
      expect(originY).toBeGreaterThan(box.y0 - 0.5);
      expect(originY).toBeLessThan(box.y1 + 0.5);
      const along = rotate === 0 ? box.x1 - box.x0 : box.y1 - box.y0;
      const across = rotate === 0 ? box.y1 - box.y0 : box.x1 - box.x0;
      // Within 6 % of the size: PDFium draws Helvetica, which the file does not embed, with a substitute font.
      expect(Math.abs(along - advance)).toBeLessThan(0.06 * 20);
      expect(across / 20).toBeGreaterThan(0.9);
      expect(across / 20).toBeLessThan(1.3);
    },
  );

  it('refuses a page with more characters than the limit', async () => {
    // Prepare
    const document = await PdfiumDocument.open(await markedPage(0));
    const page = document.page(1);

    // Act
    let code: string | null = null;
    try {
      readPdfiumWords(page, 5);
    } catch (error) {
      code = isExtractionError(error) ? error.code : 'other';
    }
    page.close();
    document.close();

    // Assess
    expect(code).toBe('resource_limit');
  });

  it.each([0, 90] as const)(
    'renders a box of the displayed page where the page draws it (/Rotate %i)',
    async (rotate) => {
      // Prepare: the black block's display box, from its PDF corners.
      const document = await PdfiumDocument.open(await markedPage(rotate));
      const page = document.page(1);
      const corners = [
        toDisplay(page.geometry.transform, 100, 100),
        toDisplay(page.geometry.transform, 150, 120),
      ];
      const block = {
        x0: Math.min(corners[0]?.[0] ?? 0, corners[1]?.[0] ?? 0),
        y0: Math.min(corners[0]?.[1] ?? 0, corners[1]?.[1] ?? 0),
        x1: Math.max(corners[0]?.[0] ?? 0, corners[1]?.[0] ?? 0),
        y1: Math.max(corners[0]?.[1] ?? 0, corners[1]?.[1] ?? 0),
      };
      const area = { x0: block.x0 - 20, y0: block.y0 - 20, x1: block.x1 + 20, y1: block.y1 + 20 };
      const scale = 2;
      const width = Math.round((area.x1 - area.x0) * scale);
      const height = Math.round((area.y1 - area.y0) * scale);

      // Act: once whole, once in strips of 7 rows.
      const whole = renderBox(page, area, scale, width, height);
      const strips = renderBox(page, area, scale, width, height, 0, width * 7);
      page.close();
      document.close();

      // Assess: dark inside the block, white around it, the same pixels either way.
      const grey = (x: number, y: number): number => whole.data[(y * width + x) * 4] ?? -1;
      expect(grey(Math.round(width / 2), Math.round(height / 2))).toBeLessThan(10);
      expect(grey(10, 10)).toBeGreaterThan(245);
      expect(grey(width - 10, height - 10)).toBeGreaterThan(245);
      const dark = whole.data.filter((value, index) => index % 4 === 0 && value < 128).length;
      expect(dark / (scale * scale * 50 * 20)).toBeCloseTo(1, 1);
      expect(Buffer.from(strips.data).equals(Buffer.from(whole.data))).toBe(true);
    },
  );

  it('renders opaque RGBA in that byte order', async () => {
    // Prepare: a red, a green and a blue block on a letter page.
    const doc = await PDFDocument.create();
    const pdfPage = doc.addPage(LETTER);
    pdfPage.drawRectangle({ x: 100, y: 692, width: 50, height: 50, color: rgb(1, 0, 0) });
    pdfPage.drawRectangle({ x: 200, y: 692, width: 50, height: 50, color: rgb(0, 1, 0) });
    pdfPage.drawRectangle({ x: 300, y: 692, width: 50, height: 50, color: rgb(0, 0, 1) });
    const document = await PdfiumDocument.open(await doc.save());
    const page = document.page(1);

    // Act: the top 200 points at a pixel a point.
    const rendered = renderBox(page, { x0: 0, y0: 0, x1: 612, y1: 200 }, 1, 612, 200);
    page.close();
    document.close();

    // Assess: each block's colour in R, G, B order at its centre (display y 75), white elsewhere, alpha 255.
    const at = (x: number, y: number) => [
      ...rendered.data.subarray((y * 612 + x) * 4, (y * 612 + x) * 4 + 4),
    ];
    expect([at(125, 75), at(225, 75), at(325, 75), at(500, 150)]).toEqual([
      [255, 0, 0, 255],
      [0, 255, 0, 255],
      [0, 0, 255, 255],
      [255, 255, 255, 255],
    ]);
    expect(rendered.data.filter((value, index) => index % 4 === 3 && value !== 255)).toHaveLength(0);
  });

  it.each([
    [0, 90],
    [0, 270],
    [90, 90],
    [90, 270],
  ] as const)(
    'renders a box of the page turned by a quarter where the turned geometry puts it (/Rotate %i, turned %i)',
    async (rotate, turn) => {
      // Prepare: the black block's box in the turned frame, from its PDF corners through the turned geometry.
      const opened = await openPdf(await markedPage(rotate), DEFAULT_LIMITS);
      const page = opened.pdfium.page(1);
      const pdfjsPage = await (await opened.pdfjsDocument()).doc.getPage(1);
      const turned = turnGeometry(page.geometry, turn);
      const corners = [toDisplay(turned.transform, 100, 100), toDisplay(turned.transform, 150, 120)];
      const block = {
        x0: Math.min(corners[0]?.[0] ?? 0, corners[1]?.[0] ?? 0),
        y0: Math.min(corners[0]?.[1] ?? 0, corners[1]?.[1] ?? 0),
        x1: Math.max(corners[0]?.[0] ?? 0, corners[1]?.[0] ?? 0),
        y1: Math.max(corners[0]?.[1] ?? 0, corners[1]?.[1] ?? 0),
      };
      const area = { x0: block.x0 - 20, y0: block.y0 - 20, x1: block.x1 + 20, y1: block.y1 + 20 };

      // Act: PDFium and pdf.js, each told the frame.
      const pdfium = renderPdfiumRegion(page, area, 144, 10_000_000, turn);
      const pdfjs = await renderRegion(
        pdfjsPage,
        area,
        144,
        10_000_000,
        undefined,
        undefined,
        turnGeometry(pageGeometry(pdfjsPage), turn),
      );
      page.close();
      await opened.close();

      // Assess: the block is 20 pt wide and 50 pt high once turned; dark inside it, white around it, both ways.
      expect(block.x1 - block.x0).toBeCloseTo(rotate === 0 ? 20 : 50, 1);
      for (const { canvas } of [pdfium, pdfjs]) {
        const pixels = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
        const grey = (x: number, y: number): number => pixels[(y * canvas.width + x) * 4] ?? -1;
        expect(grey(Math.round(canvas.width / 2), Math.round(canvas.height / 2))).toBeLessThan(10);
        expect(grey(10, 10)).toBeGreaterThan(245);
        expect(grey(canvas.width - 10, canvas.height - 10)).toBeGreaterThan(245);
        const dark = pixels.filter((value, index) => index % 4 === 0 && value < 128).length;
        expect(dark / (4 * 50 * 20)).toBeCloseTo(1, 1);
      }
    },
  );

  it('opens no encrypted or broken file, with the code the engine reports', async () => {
    // Prepare
    const codeOf = async (bytes: Uint8Array): Promise<string | null> => {
      try {
        (await PdfiumDocument.open(bytes)).close();
        return null;
      } catch (error) {
        return isExtractionError(error) ? error.code : 'other';
      }
    };

    // Act
    const encrypted = await codeOf(encryptedPdf());
    const broken = await codeOf(truncate(await markedPage(0), 0.2));

    // Assess
    expect(encrypted).toBe('pdf_encrypted');
    expect(broken).toBe('pdf_malformed');
  });
});
