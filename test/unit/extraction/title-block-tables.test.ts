import { PDFDocument } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { extractDocument } from '../../../functions/engine/index.ts';
import { defined } from '../../defined.ts';
import { ARCH_D, addSheet, drawAt } from './fixtures.ts';

const SITE_DATA = [
  ['ZONING', 'R-2'],
  ['LOT AREA', '6,000 SF'],
  ['HEIGHT', '28 FT'],
  ['STORIES', '2'],
];
const SIGN_OFF = [
  ['DRAWN BY', 'JMW'],
  ['CHECKED BY', 'ABC'],
  ['DATE', '03/14/2024'],
  ['SCALE', '1/8" = 1\'-0"'],
];

describe("tables in a title block's strip", () => {
  it('reads a named table printed in the title block, and neither the title block nor its key-value boxes', async () => {
    // Prepare: the title block's strip runs up to y 1000 over the number's block. In it, unnamed sign-off boxes
    // (y 1020..1080) and a table titled SITE DATA (y 1100..1200), both ruled.
    const [, H] = ARCH_D;
    const doc = await PDFDocument.create();
    await addSheet(doc, {
      number: 'C-101',
      title: 'SITE PLAN',
      extras: (page, font) => {
        const line = (x0: number, y0: number, x1: number, y1: number): void =>
          page.drawLine({ start: { x: x0, y: H - y0 }, end: { x: x1, y: H - y1 }, thickness: 1 });
        line(2200, 1000, 2562, 1000);
        line(2200, 1000, 2200, 1300);
        const grid = (top: number, rows: string[][], title: string | null): void => {
          const first = title ? top + 20 : top;
          const ys = [
            ...(title ? [top] : []),
            ...rows.map((_, index) => first + index * 20),
            first + rows.length * 20,
          ];
          for (const y of ys) line(2210, y, 2550, y);
          line(2210, top, 2210, first + rows.length * 20);
          line(2550, top, 2550, first + rows.length * 20);
          line(2380, first, 2380, first + rows.length * 20);
          if (title) drawAt(page, font, { text: title, x: 2330, top: top + 4, size: 9 });
          rows.forEach(([key, value], index) => {
            drawAt(page, font, { text: key ?? '', x: 2215, top: first + 4 + index * 20, size: 9 });
            drawAt(page, font, { text: value ?? '', x: 2385, top: first + 4 + index * 20, size: 9 });
          });
        };
        grid(1010, SIGN_OFF, null);
        grid(1100, SITE_DATA, 'SITE DATA');
      },
    });

    // Act
    const result = await extractDocument(await doc.save(), { ocr: false });

    // Assess: the strip is the title block's; only the named table is a table.
    const sheet = defined(result.sheets[0], 'a sheet');
    expect(sheet.sheetNumber).toBe('C-101');
    const titleBlock = defined(
      sheet.regions.find((region) => region.regionType === 'titleBlock'),
      'a title block',
    );
    expect(titleBlock.displayBox.top).toBeLessThanOrEqual(1000);
    const tables = sheet.regions.flatMap((region) => (region.table ? [region.table] : []));
    expect(tables.map((table) => table.title)).toEqual(['SITE DATA']);
    expect(tables[0]?.rows.map((row) => row.cells.map((cell) => cell.text))).toEqual(SITE_DATA);
  });
});
