import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it, onTestFinished } from 'vitest';
import { stageLayer } from '../../lib/native-layers.ts';
import { specificationPdf } from '../fixtures/pdfs.ts';

const run = promisify(execFile);

/** A node_modules tree with the engine layer's packages, under a checkout path that holds `/docs/`. */
function fakeCheckout(withBinary: boolean): string {
  const root = join(mkdtempSync(join(tmpdir(), 'psa-layer-')), 'docs', 'checkout');
  const file = (path: string, text = 'x') => {
    mkdirSync(dirname(join(root, 'node_modules', path)), { recursive: true });
    writeFileSync(join(root, 'node_modules', path), text);
  };
  const manifest = (name: string, optional: Record<string, string> = {}) =>
    file(`${name}/package.json`, JSON.stringify({ name, version: '1.0.0', optionalDependencies: optional }));
  manifest('@embedpdf/pdfium');
  file('@embedpdf/pdfium/dist/index.js');
  file('@embedpdf/pdfium/dist/index.browser.js');
  file('@embedpdf/pdfium/dist/index.cjs');
  file('@embedpdf/pdfium/dist/pdfium.wasm');
  manifest('@napi-rs/canvas', { '@napi-rs/canvas-linux-x64-gnu': '1.0.0' });
  file('@napi-rs/canvas/index.js');
  manifest('@napi-rs/canvas-linux-x64-gnu');
  if (withBinary) file('@napi-rs/canvas-linux-x64-gnu/skia.linux-x64-gnu.node');
  manifest('pdfjs-dist');
  file('pdfjs-dist/legacy/build/pdf.mjs');
  file('pdfjs-dist/build/pdf.mjs');
  file('pdfjs-dist/node_modules/@napi-rs/canvas-linux-x64-gnu/skia.linux-x64-gnu.node');
  file('pdfjs-dist/README.md');
  file('pdfjs-dist/types/src/display/api.d.ts');
  manifest('sharp', { '@img/sharp-linux-x64': '1.0.0' });
  file('sharp/lib/index.js');
  manifest('@img/sharp-linux-x64');
  if (withBinary) file('@img/sharp-linux-x64/lib/sharp-linux-x64.node');
  manifest('tesseract.js');
  file('tesseract.js/src/index.js');
  manifest('@tesseract.js-data/eng');
  file('@tesseract.js-data/eng/4.0.0/eng.traineddata.gz');
  return root;
}

/** The files under a folder, as paths relative to it. */
const filesUnder = (folder: string) =>
  readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(folder, join(entry.parentPath, entry.name)).replaceAll('\\', '/'))
    .sort();

describe('native layers', () => {
  it('stage what functions read, whatever folder the checkout sits in, without pdf.js duplicates', () => {
    // Prepare
    const root = fakeCheckout(true);
    // Act
    const staged = stageLayer('engine', root, join(root, '..', 'staged'));
    // Assess
    const files = filesUnder(join(staged, 'nodejs', 'node_modules'));
    expect(files).toEqual([
      '@embedpdf/pdfium/dist/index.js',
      '@embedpdf/pdfium/dist/pdfium.wasm',
      '@embedpdf/pdfium/package.json',
      '@img/sharp-linux-x64/lib/sharp-linux-x64.node',
      '@img/sharp-linux-x64/package.json',
      '@napi-rs/canvas-linux-x64-gnu/package.json',
      '@napi-rs/canvas-linux-x64-gnu/skia.linux-x64-gnu.node',
      '@napi-rs/canvas/index.js',
      '@napi-rs/canvas/package.json',
      '@tesseract.js-data/eng/4.0.0/eng.traineddata.gz',
      '@tesseract.js-data/eng/package.json',
      'pdfjs-dist/legacy/build/pdf.mjs',
      'pdfjs-dist/package.json',
      'sharp/lib/index.js',
      'sharp/package.json',
      'tesseract.js/package.json',
      'tesseract.js/src/index.js',
    ]);
  });

  it('refuse to stage a layer whose platform binary is missing', () => {
    // Prepare
    const root = fakeCheckout(false);
    // Act
    const stage = () => stageLayer('engine', root, join(root, '..', 'staged'));
    // Assess
    expect(stage).toThrow(/no platform binary in @napi-rs\/canvas-linux-x64-gnu/);
  });

  it('read and render a page with PDFium, pdf.js and canvas, and encode a PNG with sharp, from the staged engine layer alone (Lambda /opt/nodejs layout)', async () => {
    // Prepare: the real packages, staged as Lambda mounts the layer; a script that resolves from there.
    const folder = mkdtempSync(join(tmpdir(), 'psa-opt-'));
    onTestFinished(() => rmSync(folder, { recursive: true, force: true }));
    const staged = stageLayer('engine', undefined, join(folder, 'opt'));
    const pdf = join(staged, 'page.pdf');
    writeFileSync(pdf, await specificationPdf());
    const script = join(staged, 'nodejs', 'render.mjs');
    writeFileSync(
      script,
      `import { readFileSync } from 'node:fs';
import * as canvas from '@napi-rs/canvas';
globalThis.Path2D ??= canvas.Path2D; globalThis.DOMMatrix ??= canvas.DOMMatrix; globalThis.ImageData ??= canvas.ImageData;
const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
const document = await pdfjs.getDocument({ data: new Uint8Array(readFileSync(process.argv[2])), isEvalSupported: false }).promise;
const page = await document.getPage(1);
const viewport = page.getViewport({ scale: 1 });
const surface = canvas.createCanvas(Math.ceil(viewport.width), Math.ceil(viewport.height));
await page.render({ canvasContext: surface.getContext('2d'), viewport, canvas: surface }).promise;
const text = (await page.getTextContent()).items.map((item) => item.str).join(' ');
const { createRequire } = await import('node:module');
const { init } = await import('@embedpdf/pdfium');
const pdfium = await init({ wasmBinary: readFileSync(createRequire(import.meta.url).resolve('@embedpdf/pdfium/pdfium.wasm')) });
pdfium.PDFiumExt_Init();
const bytes = readFileSync(process.argv[2]);
const at = pdfium.pdfium.wasmExports.malloc(bytes.length);
pdfium.pdfium.HEAPU8.set(bytes, at);
const pdfiumDocument = pdfium.FPDF_LoadMemDocument(at, bytes.length, '');
const pdfiumPage = pdfium.FPDF_LoadPage(pdfiumDocument, 0);
const chars = pdfium.FPDFText_CountChars(pdfium.FPDFText_LoadPage(pdfiumPage));
const bitmap = pdfium.FPDFBitmap_Create(100, 100, 0);
pdfium.FPDF_RenderPageBitmap(bitmap, pdfiumPage, 0, 0, 100, 100, 0, 0);
const { default: sharp } = await import('sharp');
const encoded = await sharp(new Uint8Array(40000).fill(255), { raw: { width: 100, height: 100, channels: 4 } }).png().toBuffer();
console.log(JSON.stringify({ sharpPng: (await sharp(encoded).metadata()).width, pages: document.numPages, png: surface.toBuffer('image/png').length, text: text.slice(0, 80), pdfiumPages: pdfium.FPDF_GetPageCount(pdfiumDocument), chars }));
`,
    );
    // Act
    const { stdout } = await run(process.execPath, [script, pdf], { cwd: dirname(staged) });
    // Assess
    expect(existsSync(join(staged, 'nodejs', 'node_modules', 'pdfjs-dist', 'node_modules'))).toBe(false);
    // pdf.js's WebAssembly decoders (the engine's wasmUrl): without OpenJPEG no JPEG 2000 image is drawn.
    for (const decoder of ['openjpeg.wasm', 'jbig2.wasm'])
      expect(existsSync(join(staged, 'nodejs', 'node_modules', 'pdfjs-dist', 'wasm', decoder))).toBe(true);
    const rendered = JSON.parse(stdout) as {
      sharpPng: number;
      pages: number;
      png: number;
      text: string;
      pdfiumPages: number;
      chars: number;
    };
    expect(rendered.pages).toBe(2);
    expect(rendered.sharpPng).toBe(100);
    expect(rendered.pdfiumPages).toBe(2);
    expect(rendered.chars).toBeGreaterThan(10);
    expect(rendered.png).toBeGreaterThan(1000);
    expect(rendered.text.length).toBeGreaterThan(10);
  });
});
