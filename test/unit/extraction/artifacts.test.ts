import { loadImage } from '@napi-rs/canvas';
import { degrees, PDFDocument } from 'pdf-lib';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import {
  buildSectionPdf,
  extractDocument,
  openPageExtractor,
  renderOverlay,
  renderRegionCrop,
  renderRegionCrops,
} from '../../../functions/engine/index.ts';
import { defined } from '../../defined.ts';
import { addSheet, buildSpecBook, paragraphs } from './fixtures.ts';

const PNG_MAGIC = [0x89, 0x50, 0x4e, 0x47];

describe('artifacts', () => {
  it('renders a region crop at the requested resolution', async () => {
    // Prepare
    const doc = await PDFDocument.create();
    await addSheet(doc, { number: 'A-101', title: 'FIRST FLOOR PLAN' });
    const bytes = await doc.save();
    const result = await extractDocument(bytes, { ocr: false });
    const titleBlock = defined(
      defined(result.sheets[0], 'a sheet').regions.find((r) => r.regionType === 'titleBlock'),
      'a title block region',
    );

    // Act
    const png = await renderRegionCrop(bytes, 1, titleBlock.displayBox, 72);

    // Assess
    expect([...png.slice(0, 4)]).toEqual(PNG_MAGIC);
    const image = await loadImage(Buffer.from(png));
    const b = titleBlock.displayBox;
    expect(image.width).toBeCloseTo(b.right - b.left, -1);
    expect(image.height).toBeCloseTo(b.bottom - b.top, -1);
  });

  it('cuts many crops from one render per page, matching single crops, with null for boxes off the page', async () => {
    // Prepare
    const doc = await PDFDocument.create();
    await addSheet(doc, { number: 'A-101', title: 'FIRST FLOOR PLAN' });
    await addSheet(doc, { number: 'A-102', title: 'SECOND FLOOR PLAN' });
    const bytes = await doc.save();
    const result = await extractDocument(bytes, { ocr: false });
    const crops = result.sheets.flatMap((sheet) =>
      sheet.regions.map((region) => ({ pageNumber: sheet.pageNumber, box: region.displayBox })),
    );
    const offPage = { pageNumber: 1, box: { left: -500, top: -500, right: -400, bottom: -400 } };
    const missingPage = { pageNumber: 9, box: defined(crops[0], 'a region crop').box };

    // Act
    const pngs = await renderRegionCrops(bytes, [...crops, offPage, missingPage], 72);

    // Assess
    expect(pngs).toHaveLength(crops.length + 2);
    expect(pngs.at(-2)).toBeNull();
    expect(pngs.at(-1)).toBeNull();
    for (const [index, crop] of crops.entries()) {
      const image = await loadImage(Buffer.from(defined(pngs[index], `the PNG of crop ${index}`)));
      const single = await loadImage(
        Buffer.from(await renderRegionCrop(bytes, crop.pageNumber, crop.box, 72)),
      );
      expect(Math.abs(image.width - single.width)).toBeLessThanOrEqual(2);
      expect(Math.abs(image.height - single.height)).toBeLessThanOrEqual(2);
    }
    expect(crops.length).toBeGreaterThanOrEqual(2);
  });

  it('an opened file renders the crops of its pages as renderRegionCrops does', async () => {
    // Prepare
    const doc = await PDFDocument.create();
    await addSheet(doc, { number: 'A-101', title: 'FIRST FLOOR PLAN' });
    const bytes = await doc.save();
    const extractor = await openPageExtractor(bytes, { ocr: false });
    const [page] = await extractor.extract({ from: 1, to: 1 });
    const crops = (page?.sheet?.regions ?? []).map((region) => ({ pageNumber: 1, box: region.displayBox }));

    // Act
    const fromSession = await extractor.regionCrops(crops, 72);
    await extractor.close();
    const fromBytes = await renderRegionCrops(bytes, crops, 72);

    // Assess
    expect(crops.length).toBeGreaterThanOrEqual(1);
    expect(fromSession.map((png) => png && Buffer.from(png).toString('base64'))).toEqual(
      fromBytes.map((png) => png && Buffer.from(png).toString('base64')),
    );
  });

  it('draws an overlay of the whole page', async () => {
    const doc = await PDFDocument.create();
    await addSheet(doc, { number: 'A-101', title: 'FIRST FLOOR PLAN' });
    const bytes = await doc.save();
    const result = await extractDocument(bytes, { ocr: false });
    const png = await renderOverlay(bytes, 1, defined(result.sheets[0], 'a sheet').regions, 36);
    const image = await loadImage(Buffer.from(png));
    expect([image.width, image.height]).toEqual([1296, 864]);
  });

  it.each([0, 90] as const)(
    'draws each region’s frame in its colour and its label where the region is, on a page turned %i',
    async (rotate) => {
      // Prepare: an empty letter page; a view region in the middle of the displayed page, with a label.
      const doc = await PDFDocument.create();
      doc.addPage([612, 792]).setRotation(degrees(rotate));
      const bytes = await doc.save();
      const [width, height] = rotate === 90 ? [792, 612] : [612, 792];
      const displayBox = { left: 200, top: 300, right: 400, bottom: 500 };
      const region = { regionType: 'view' as const, label: 'PLAN', displayBox, titleDisplayBox: null };

      // Act: at 72 dpi a pixel is a point.
      const png = await renderOverlay(bytes, 1, [region], 72);
      const crop = await renderRegionCrop(bytes, 1, { left: 0, top: 0, right: width, bottom: height }, 72);

      // Assess: the page's displayed size; the view's blue (#1f77b4) on the frame's four sides and nowhere
      // far from it; dark label letters just above the frame; the file itself unchanged (a crop is white).
      const { data, info } = await sharp(png).raw().toBuffer({ resolveWithObject: true });
      expect([info.width, info.height]).toEqual([width, height]);
      const pixel = (x: number, y: number) => [
        ...data.subarray((y * width + x) * 3, (y * width + x) * 3 + 3),
      ];
      const blue = (x: number, y: number) => {
        const [r = 0, g = 0, b = 0] = pixel(x, y);
        return b > 150 && r < 80 && g > 80 && g < 160;
      };
      expect([blue(300, 300), blue(300, 499), blue(200, 400), blue(399, 400)]).toEqual([
        true,
        true,
        true,
        true,
      ]);
      expect([blue(300, 400), blue(100, 100), blue(width - 20, height - 20)]).toEqual([false, false, false]);
      let labelPixels = 0;
      for (let y = 285; y < 300; y++) for (let x = 200; x < 300; x++) if (blue(x, y)) labelPixels++;
      expect(labelPixels).toBeGreaterThan(20);
      const page = await sharp(crop).raw().toBuffer({ resolveWithObject: true });
      expect(page.data.every((value) => value > 250)).toBe(true);
    },
  );

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
