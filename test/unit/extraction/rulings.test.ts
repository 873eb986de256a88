import { lineTo, moveTo, PDFDocument, stroke } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { openPdf, pageGeometry } from '../../../functions/engine/io/pdf.ts';
import { readRulings } from '../../../functions/engine/io/rulings.ts';
import { DEFAULT_LIMITS } from '../../../functions/engine/limits.ts';

describe('rulings', () => {
  it('joins a line drawn in pieces at slightly different heights when asked to join row by row', async () => {
    // Prepare: the right piece 0.4 pt higher than the left one (PDF y up), drawn first.
    const pdf = await PDFDocument.create();
    const page = pdf.addPage([612, 792]);
    page.pushOperators(moveTo(300, 500.4), lineTo(400, 500.4), stroke());
    page.pushOperators(moveTo(100, 500), lineTo(310, 500), stroke());
    const opened = await openPdf(await pdf.save(), DEFAULT_LIMITS);
    const { doc, pdfjs } = await opened.pdfjsDocument();
    const pdfPage = await doc.getPage(1);
    const geometry = pageGeometry(pdfPage);

    // Act
    const rows = await readRulings(pdfPage, pdfjs, geometry, 10, 1_000_000, true);

    // Assess
    expect(rows.filter((r) => r.axis === 'h').map((r) => [Math.round(r.from), Math.round(r.to)])).toEqual([
      [100, 400],
    ]);
  });
});
