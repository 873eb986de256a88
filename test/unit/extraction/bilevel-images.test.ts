import { deflateSync } from 'node:zlib';
import { PDFDocument, PDFName } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { imagePixelLimit, readImageDictionary } from '../../../functions/engine/io/bilevel-images.ts';
import { openPdf } from '../../../functions/engine/io/pdf.ts';
import { renderRegion } from '../../../functions/engine/io/render.ts';
import { resolveLimits } from '../../../functions/engine/limits.ts';

/** Image size of the scan below: 3 Mpx, over the lowered limits of these tests (1 Mpx). */
const SCAN_WIDTH = 2000;
const SCAN_HEIGHT = 1500;
const limits = resolveLimits({ maxImagePixels: 1_000_000, maxBilevelImagePixels: 8_000_000 });

/**
 * A sheet (1000 x 750 pt) that is one bilevel image over the whole page, white but for a black block in its
 * bottom-right part (image columns 1600-1800, rows 1200-1400: display points 800-900 x 600-700).
 * `bitsPerComponent` 8 makes the same picture a grey image (one byte a pixel).
 */
const scannedSheet = async (bitsPerComponent: 1 | 8 = 1): Promise<Uint8Array> => {
  const rowBytes = bitsPerComponent === 1 ? (SCAN_WIDTH + 7) >> 3 : SCAN_WIDTH;
  const pixels = new Uint8Array(rowBytes * SCAN_HEIGHT).fill(0xff);
  for (let row = 1200; row < 1400; row++) {
    for (let column = 1600; column < 1800; column++) {
      if (bitsPerComponent === 8) pixels[row * rowBytes + column] = 0;
      else {
        const at = row * rowBytes + (column >> 3);
        pixels[at] = (pixels[at] ?? 0xff) & ~(0x80 >> (column & 7));
      }
    }
  }
  const doc = await PDFDocument.create();
  const page = doc.addPage([1000, 750]);
  const image = doc.context.stream(deflateSync(pixels), {
    Type: 'XObject',
    Subtype: 'Image',
    Width: SCAN_WIDTH,
    Height: SCAN_HEIGHT,
    ColorSpace: 'DeviceGray',
    BitsPerComponent: bitsPerComponent,
    Filter: 'FlateDecode',
  });
  const name = page.node.newXObject('Scan', doc.context.register(image));
  // The image fills the page.
  const contents = `q 1000 0 0 750 0 0 cm ${name.asString()} Do Q`;
  page.node.set(PDFName.of('Contents'), doc.context.register(doc.context.stream(contents)));
  return doc.save({ useObjectStreams: false });
};

/** Mean brightness (0-255) of a canvas area. */
const brightness = (
  canvas: Awaited<ReturnType<typeof renderRegion>>['canvas'],
  x: number,
  y: number,
  width: number,
  height: number,
): number => {
  const data = canvas.getContext('2d').getImageData(x, y, width, height).data;
  let sum = 0;
  for (let at = 0; at < data.length; at += 4) sum += data[at] ?? 0;
  return sum / (data.length / 4);
};

describe('bilevel scans over the image budget', () => {
  it('reads the size and depth an image dictionary states', () => {
    expect(
      readImageDictionary('/Type /XObject /Subtype /Image /Width 13600 /Height 8800 /BitsPerComponent 1'),
    ).toEqual({
      width: 13600,
      height: 8800,
      bilevel: true,
    });
    expect(readImageDictionary('/Subtype/Image/Width 10/Height 12 0 R/ImageMask true')).toEqual({
      width: 10,
      height: null,
      bilevel: true,
    });
    expect(readImageDictionary('/Subtype /Image /Width 500 /Height 400 /BitsPerComponent 8').bilevel).toBe(
      false,
    );
  });

  it('opens a file whose only large image is bilevel with a limit that admits it, and no other', async () => {
    // Prepare: the same picture as a bilevel and as a grey image.
    const bilevel = await scannedSheet(1);
    const grey = await scannedSheet(8);

    // Act
    const bilevelLimit = imagePixelLimit(bilevel, limits);
    const greyLimit = imagePixelLimit(grey, limits);
    const cappedLimit = imagePixelLimit(bilevel, { ...limits, maxBilevelImagePixels: 2_000_000 });

    // Assess
    expect(bilevelLimit).toBe(SCAN_WIDTH * SCAN_HEIGHT);
    expect(greyLimit).toBe(limits.maxImagePixels);
    expect(cappedLimit).toBe(2_000_000);
  });

  it('renders a large bilevel scan sampled at the render resolution instead of leaving it out', async () => {
    // Prepare
    const opened = await openPdf(await scannedSheet(1), limits);
    const { doc } = await opened.pdfjsDocument();
    const page = await doc.getPage(1);

    // Act: the bottom-right quarter at 72 dpi, on a canvas budget under the image's own pixels.
    const rendered = await renderRegion(page, { x0: 500, y0: 375, x1: 1000, y1: 750 }, 72, 1_000_000);

    // Assess: the block (display 800-900 x 600-700) is black, the rest of the quarter white.
    expect(rendered.canvas.width).toBe(500);
    expect(brightness(rendered.canvas, 310, 235, 80, 80)).toBeLessThan(10);
    expect(brightness(rendered.canvas, 20, 20, 200, 150)).toBeGreaterThan(245);
    expect(brightness(rendered.canvas, 410, 335, 80, 30)).toBeGreaterThan(245);
    await opened.close();
  });
});
