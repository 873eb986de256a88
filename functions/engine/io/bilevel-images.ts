/**
 * Bilevel (1 bit per pixel) scans larger than the image budget: an E-size sheet scanned at 400 dpi is 13600 x
 * 8800 px, over `maxImagePixels`, yet pdf.js keeps its pixels packed (15 MB). What costs memory is drawing it:
 * pdf.js expands an image to a full-size RGBA canvas before scaling it (480 MB for that scan). So a file whose
 * only large images are bilevel is opened with a pixel limit that admits them (bilevelImageAllowance), and a
 * render draws such an image itself, sampled from the packed bits at the render's own resolution
 * (drawBilevelImage), instead of refusing the page.
 */
import type { Canvas } from '@napi-rs/canvas';
import { type Box, invert, type Matrix } from '../geometry.ts';
import type { ExtractionLimits } from '../limits.ts';
import type { OperatorList, PdfJs, PdfPage } from './pdf.ts';

/** Most bytes of a dictionary read before and after `/Subtype /Image` (a guard, not a parser). */
const DICTIONARY_REACH = 4096;

export interface ImageDictionary {
  width: number | null;
  height: number | null;
  bilevel: boolean;
}

/** The size and depth an image XObject's dictionary states; null sizes when they are not direct numbers. */
export const readImageDictionary = (text: string): ImageDictionary => {
  const direct = (key: string): number | null => {
    // A number followed by `0 R` is a reference to an object holding the size: not a direct number.
    const match = new RegExp(`/${key}\\s+(\\d+)(?!\\d)(?!\\s+\\d+\\s+R)`).exec(text);
    return match?.[1] ? Number(match[1]) : null;
  };
  return {
    width: direct('Width'),
    height: direct('Height'),
    bilevel: /\/ImageMask\s+true/.test(text) || direct('BitsPerComponent') === 1,
  };
};

/** Image XObject dictionaries of a file, found by a lexical scan (good enough for a resource guard). */
const imageDictionaries = (bytes: Uint8Array): ImageDictionary[] => {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const found: ImageDictionary[] = [];
  let position = 0;
  for (;;) {
    const at = buf.indexOf('/Subtype', position, 'latin1');
    if (at < 0) break;
    position = at + 8;
    const after = buf.toString('latin1', position, Math.min(buf.length, position + 16));
    if (!/^\s*\/Image(?![A-Za-z])/.test(after)) continue;
    const objectStart = buf.lastIndexOf('obj', at, 'latin1');
    const start = Math.max(objectStart, 0, at - DICTIONARY_REACH);
    const streamAt = buf.indexOf('stream', at, 'latin1');
    const end = Math.min(streamAt < 0 ? buf.length : streamAt, at + DICTIONARY_REACH);
    found.push(readImageDictionary(buf.toString('latin1', start, end)));
  }
  return found;
};

/**
 * The pixel limit pdf.js opens the file with: `maxImagePixels`, raised to the largest bilevel image (at most
 * `maxBilevelImagePixels`) when every image over `maxImagePixels` is bilevel and states its size. Any other
 * large image (or one whose size is not a direct number) keeps the limit where it is, and pdf.js leaves the
 * large images out as before. Inline images inside compressed content streams are not seen by the scan; they
 * are bounded by the per-stream inflate limit.
 */
export const imagePixelLimit = (bytes: Uint8Array, limits: ExtractionLimits): number => {
  let largestBilevel = 0;
  for (const image of imageDictionaries(bytes)) {
    const pixels = image.width !== null && image.height !== null ? image.width * image.height : null;
    if (pixels !== null && pixels <= limits.maxImagePixels) continue;
    if (pixels === null || !image.bilevel) return limits.maxImagePixels;
    largestBilevel = Math.max(largestBilevel, pixels);
  }
  return largestBilevel > limits.maxImagePixels
    ? Math.min(largestBilevel, limits.maxBilevelImagePixels)
    : limits.maxImagePixels;
};

/** pdf.js' packed bilevel data: rows of (width + 7) >> 3 bytes, most significant bit first; a 0 bit is ink. */
export interface PackedBilevelImage {
  width: number;
  height: number;
  data: Uint8Array | Uint8ClampedArray;
}

/** Rows of the canvas processed at a time (bounded scratch memory on large renders). */
const STRIP_ROWS = 256;

/**
 * Draws a bilevel image onto a render of `box` (display points) at `scale` pixels per point. `toDisplay` maps
 * the image's unit square to display points (the page transform times the current transformation matrix at
 * the paint), row 0 of the image at the square's top (v = 1). Each canvas pixel takes the share of ink among
 * a few samples of the image under it, multiplied into what is already drawn (a scan under later markups).
 */
export const drawBilevelImage = (
  canvas: Canvas,
  box: Box,
  scale: number,
  image: PackedBilevelImage,
  toDisplay: Matrix,
): void => {
  const [xPerUnitX, yPerUnitX, xPerUnitY, yPerUnitY] = toDisplay;
  if (Math.abs(xPerUnitX * yPerUnitY - yPerUnitX * xPerUnitY) < 1e-9) return;
  // Display point -> unit square: the inverse of toDisplay.
  const toUnit = invert(toDisplay);
  // Canvas pixel (px, py) -> image column and row: x = box.x0 + px / scale, then toUnit, then
  // column = u * width, row = (1 - v) * height.
  const { width, height, data } = image;
  const rowBytes = (width + 7) >> 3;
  const columnPerX = (toUnit[0] * width) / scale;
  const columnPerY = (toUnit[2] * width) / scale;
  const rowPerX = (-toUnit[1] * height) / scale;
  const rowPerY = (-toUnit[3] * height) / scale;
  const column0 = (toUnit[0] * box.x0 + toUnit[2] * box.y0 + toUnit[4]) * width;
  const row0 = (1 - (toUnit[1] * box.x0 + toUnit[3] * box.y0 + toUnit[5])) * height;
  // Enough samples per pixel that no image pixel is stepped over (a one-pixel stroke of a 400 dpi scan).
  const step = Math.max(Math.hypot(columnPerX, rowPerX), Math.hypot(columnPerY, rowPerY));
  const samples = Math.min(4, Math.max(1, Math.ceil(step)));
  const sampleCount = samples * samples;
  const context = canvas.getContext('2d');
  const area = imageArea(toDisplay, box, scale, canvas.width, canvas.height);
  if (!area) return;
  for (let stripTop = area.top; stripTop < area.bottom; stripTop += STRIP_ROWS) {
    const stripHeight = Math.min(STRIP_ROWS, area.bottom - stripTop);
    const stripWidth = area.right - area.left;
    const pixels = context.getImageData(area.left, stripTop, stripWidth, stripHeight);
    const rgba = pixels.data;
    for (let y = 0; y < stripHeight; y++) {
      for (let x = 0; x < stripWidth; x++) {
        let ink = 0;
        for (let sy = 0; sy < samples; sy++) {
          const py = stripTop + y + (sy + 0.5) / samples;
          for (let sx = 0; sx < samples; sx++) {
            const px = area.left + x + (sx + 0.5) / samples;
            const column = Math.floor(column0 + columnPerX * px + columnPerY * py);
            const row = Math.floor(row0 + rowPerX * px + rowPerY * py);
            if (column < 0 || row < 0 || column >= width || row >= height) continue;
            const byte = data[row * rowBytes + (column >> 3)] ?? 0xff;
            if (((byte >> (7 - (column & 7))) & 1) === 0) ink++;
          }
        }
        if (ink === 0) continue;
        const keep = 1 - ink / sampleCount;
        const at = (y * stripWidth + x) * 4;
        rgba[at] = Math.round((rgba[at] ?? 255) * keep);
        rgba[at + 1] = Math.round((rgba[at + 1] ?? 255) * keep);
        rgba[at + 2] = Math.round((rgba[at + 2] ?? 255) * keep);
      }
    }
    context.putImageData(pixels, area.left, stripTop);
  }
};

/** The canvas pixels the image's unit square covers, clipped to the canvas; null when it covers none. */
const imageArea = (
  toDisplay: Matrix,
  box: Box,
  scale: number,
  canvasWidth: number,
  canvasHeight: number,
): { left: number; top: number; right: number; bottom: number } | null => {
  const xs: number[] = [];
  const ys: number[] = [];
  for (const [unitX, unitY] of [
    [0, 0],
    [0, 1],
    [1, 0],
    [1, 1],
  ] as const) {
    xs.push((toDisplay[0] * unitX + toDisplay[2] * unitY + toDisplay[4] - box.x0) * scale);
    ys.push((toDisplay[1] * unitX + toDisplay[3] * unitY + toDisplay[5] - box.y0) * scale);
  }
  const left = Math.max(0, Math.floor(Math.min(...xs)));
  const top = Math.max(0, Math.floor(Math.min(...ys)));
  const right = Math.min(canvasWidth, Math.ceil(Math.max(...xs)));
  const bottom = Math.min(canvasHeight, Math.ceil(Math.max(...ys)));
  return right > left && bottom > top ? { left, top, right, bottom } : null;
};

/** A large bilevel image the render left to the engine (see bilevel-images.ts), with its placement. */
export interface SampledImage {
  image: PackedBilevelImage;
  toDisplay: Matrix;
}

/** pdf.js' packed 1-bit grey image kind (ImageKind.GRAYSCALE_1BPP). */
const GRAYSCALE_1BPP = 1;

/** Whether the list paints an image over `maxPixels` (only bilevel ones pass pdf.js' limit that large). */
export const paintsLargeImage = (list: OperatorList, pdfjs: PdfJs, maxPixels: number): boolean => {
  const { OPS } = pdfjs;
  return list.fnArray.some((operator, index) => {
    const operands = list.argsArray[index] as unknown[] | null | undefined;
    if (operator === OPS.paintImageXObject) return Number(operands?.[1]) * Number(operands?.[2]) > maxPixels;
    if (operator === OPS.paintImageMaskXObject) {
      const mask = operands?.[0] as { width?: number; height?: number } | undefined;
      return (mask?.width ?? 0) * (mask?.height ?? 0) > maxPixels;
    }
    return false;
  });
};

/** The packed bits of an image paint over `maxPixels` that is bilevel (a mask, or a 1-bit grey image). */
export const largeBilevelImage = (
  page: PdfPage,
  isMask: boolean,
  operands: readonly unknown[],
  maxPixels: number,
): PackedBilevelImage | null => {
  const objects = (page as unknown as { objs: { has(id: string): boolean; get(id: string): unknown } }).objs;
  const id = isMask ? (operands[0] as { data?: unknown } | undefined)?.data : operands[0];
  if (typeof id !== 'string' || !objects.has(id)) return null;
  const image = objects.get(id) as {
    width?: number;
    height?: number;
    kind?: number;
    data?: Uint8Array | Uint8ClampedArray | null;
  } | null;
  if (!image?.data || !image.width || !image.height || image.width * image.height <= maxPixels) return null;
  if (!isMask && image.kind !== GRAYSCALE_1BPP) return null;
  return { width: image.width, height: image.height, data: image.data };
};
