import { loadImage } from '@napi-rs/canvas';
import { PDFDocument } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import {
  buildSectionPdf,
  extractDocument,
  renderOverlay,
  renderRegionCrop,
} from '../../../functions/core/extraction/index.ts';
import { addSheet, buildSpecBook, paragraphs } from './fixtures.ts';

const PNG_MAGIC = [0x89, 0x50, 0x4e, 0x47];

describe('artifacts', () => {
  it('renders a region crop at the requested resolution', async () => {
    // Prepare
    const doc = await PDFDocument.create();
    await addSheet(doc, { number: 'A-101', title: 'FIRST FLOOR PLAN' });
    const bytes = await doc.save();
    const result = await extractDocument(bytes, { ocr: false });
    const titleBlock = result.sheets[0]!.regions.find((r) => r.regionType === 'titleBlock')!;

    // Act
    const png = await renderRegionCrop(bytes, 1, titleBlock.displayBox, 72);

    // Assess
    expect([...png.slice(0, 4)]).toEqual(PNG_MAGIC);
    const image = await loadImage(Buffer.from(png));
    const b = titleBlock.displayBox;
    expect(image.width).toBeCloseTo(b.right - b.left, -1);
    expect(image.height).toBeCloseTo(b.bottom - b.top, -1);
  });

  it('draws an overlay of the whole page', async () => {
    const doc = await PDFDocument.create();
    await addSheet(doc, { number: 'A-101', title: 'FIRST FLOOR PLAN' });
    const bytes = await doc.save();
    const result = await extractDocument(bytes, { ocr: false });
    const png = await renderOverlay(bytes, 1, result.sheets[0]!.regions, 36);
    const image = await loadImage(Buffer.from(png));
    expect([image.width, image.height]).toEqual([1296, 864]);
  });

  it('builds a PDF of a section page range, and rejects ranges outside the file', async () => {
    // Prepare
    const bytes = await buildSpecBook(
      [1, 2, 3, 4, 5].map((i) => ({ lines: [`PAGE ${i}`, ...paragraphs(3)] })),
    );

    // Act
    const section = await buildSectionPdf(bytes, 2, 4);

    // Assess
    const loaded = await PDFDocument.load(section);
    expect(loaded.getPageCount()).toBe(3);
    const text = await extractDocument(section, { ocr: false });
    expect(text.pageCount).toBe(3);
    await expect(buildSectionPdf(bytes, 4, 9)).rejects.toMatchObject({ code: 'invalid_page_range' });
  });
});
