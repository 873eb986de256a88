import {
  concatTransformationMatrix,
  drawObject,
  PDFDocument,
  popGraphicsState,
  pushGraphicsState,
} from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { openPdf } from '../../../functions/engine/io/pdf.ts';
import { renderPdfiumRegion, renderRegion } from '../../../functions/engine/io/render.ts';
import { DEFAULT_LIMITS } from '../../../functions/engine/limits.ts';
import { inkPixels } from '../../../functions/engine/pages/ocr-cells.ts';
import { LETTER } from './fixtures.ts';

/**
 * A 64 x 32 grey image, white with a black 48 x 16 box in its middle, as a JPEG 2000 codestream: made with
 * OpenJPEG's `opj_compress -i box.pgm -o box.j2k` from a synthetic PGM (scans are often stored this way).
 */
const BOX_J2K = Buffer.from(
  '/0//UQApAAAAAABAAAAAIAAAAAAAAAAAAAAAQAAAACAAAAAAAAAAAAABBwEB/1IADAAAAAEABQQEAAH/XAATQEBISFBISFBISFBISFBISFD/ZAAlAAFDcmVhdGVkIGJ5IE9wZW5KUEVHIHZlcnNpb24gMi41LjD/kAAKAAAAAAFrAAH/k8+0DAOmP8faB35gkfgBgAcOvww2Z18GS3vPwCZ+AVH4BIAYNdNv2Zmo058Pew7YEsbkNrA/GQLdAjoiqg9Rz8BOfgOw+0TACf8XLJhjM8oplqinZU8yMhQ6BRz9uxup8IKZ9yJKvkRKPskTGcXP0OgELeSsmF+8EXszbzb+TYUEmM3yHXqyD6sAc8/Aen4F8PtFQBnVjU7ZnwF2hyJUKGw/OgcgpEfvTU/P7H9iDgX7LyDeDTJchVS+14IcwbOBgxlMHIxNPXuYPeFGByjkNmOzbsyK/naFBGNi5SdpHvyvFfuczm28DldL2HvRHBBn4lJj3mLHz8B+fgaQ+0MAj03809ggNPNo3cMipINJVQvjb+08o05H9KfX8unSDy5DSFiwprbJNH5sXGVzlK4wjuvse78iMIYrpBo5xSCN8v+Ed8phGpXujzFOI1MA0eYpxGck27fYB2xCi2J2qb//2Q==',
  'base64',
);

/** A letter page that draws the JPEG 2000 image over the rectangle (72, 600)-(272, 700), PDF coordinates. */
const pageWithJpxImage = async (): Promise<Uint8Array> => {
  const doc = await PDFDocument.create();
  const page = doc.addPage(LETTER);
  const image = doc.context.stream(BOX_J2K, {
    Type: 'XObject',
    Subtype: 'Image',
    Width: 64,
    Height: 32,
    ColorSpace: 'DeviceGray',
    BitsPerComponent: 8,
    Filter: 'JPXDecode',
  });
  const name = page.node.newXObject('Box', doc.context.register(image));
  page.pushOperators(
    pushGraphicsState(),
    concatTransformationMatrix(200, 0, 0, 100, 72, 600),
    drawObject(name),
    popGraphicsState(),
  );
  return doc.save();
};

describe('JPEG 2000 images', () => {
  it('are decoded and drawn (pdf.js needs its WebAssembly decoder for them)', async () => {
    // Prepare
    const opened = await openPdf(await pageWithJpxImage(), DEFAULT_LIMITS);
    const { doc } = await opened.pdfjsDocument();
    const page = await doc.getPage(1);

    // Act: the image's rectangle at 72 dpi (display y runs down: 792 - 700 = 92 to 792 - 600 = 192).
    const rendered = await renderRegion(
      page,
      { x0: 72, y0: 92, x1: 272, y1: 192 },
      72,
      DEFAULT_LIMITS.maxCanvasPixels,
    );
    await opened.close();

    // Assess: the black box is 3/4 of the image's width and 1/2 of its height: about 150 x 50 points.
    const pixels = rendered.canvas
      .getContext('2d')
      .getImageData(0, 0, rendered.canvas.width, rendered.canvas.height);
    const dark = inkPixels(pixels.data);
    expect(dark).toBeGreaterThan(150 * 50 * 0.9);
    expect(dark).toBeLessThan(150 * 50 * 1.1);
  });

  it('are decoded and drawn by PDFium (crops and overlays)', async () => {
    // Prepare
    const opened = await openPdf(await pageWithJpxImage(), DEFAULT_LIMITS);
    const page = opened.pdfium.page(1);

    // Act: the image's rectangle at 72 dpi, as above.
    const rendered = renderPdfiumRegion(
      page,
      { x0: 72, y0: 92, x1: 272, y1: 192 },
      72,
      DEFAULT_LIMITS.maxCanvasPixels,
    );
    page.close();
    await opened.close();

    // Assess: the black box, about 150 x 50 points.
    const pixels = rendered.canvas
      .getContext('2d')
      .getImageData(0, 0, rendered.canvas.width, rendered.canvas.height);
    const dark = inkPixels(pixels.data);
    expect(dark).toBeGreaterThan(150 * 50 * 0.9);
    expect(dark).toBeLessThan(150 * 50 * 1.1);
  });
});
