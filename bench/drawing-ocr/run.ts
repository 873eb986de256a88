/**
 * CPU of reading a whole outlined sheet by OCR (drawing-ocr.ts), against the native `tesseract` 5 command on
 * the same renders in the same run: the same tiles, rendered by the engine (PDFium, as drawing-ocr.ts renders
 * them; here tile by tile), each read by tesseract.js
 * (the engine's OCR, in this process) and by native tesseract (one thread, the same traineddata, the same page
 * segmentation), alternately.
 *
 *   npm run bench:drawing-ocr -- [--file substr] [--pages a-b] [--dpi N]
 *
 * Default: pages 6-10 of the 2977J drawing set (outlined 34 x 22 sheets). Prints per sheet the render CPU,
 * tesseract.js CPU, native CPU, the ratio, and the words each read at MIN_CONFIDENCE or more; then the totals.
 * Installs Debian's tesseract-ocr with apt-get when it is missing (for this bench only). Skips without the
 * corpus.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { recognize, terminateOcr } from '../../functions/engine/io/ocr.ts';
import { openPdf } from '../../functions/engine/io/pdf.ts';
import { renderPdfiumRegion } from '../../functions/engine/io/render.ts';
import { DEFAULT_LIMITS } from '../../functions/engine/limits.ts';
import { drawingDpi, MIN_CONFIDENCE, planTiles } from '../../functions/engine/pages/drawing-ocr.ts';
import { corpusDir, flagValue } from '../args.ts';
import { ensureDebianTool } from '../poppler.ts';
import { recordResult } from '../results.ts';

const flag = (name: string, fallback: string): string => flagValue(name) ?? fallback;
const corpus = corpusDir;
if (!existsSync(corpus)) {
  console.log(`drawing-ocr: corpus not found at ${corpus}; skipping.`);
  process.exit(0);
}
const fileFilter = flag('--file', '2977J-paul-ave-pavement-sewer_drawings');
const [from, to] = flag('--pages', '6-10').split('-').map(Number);
const file = ['', 'drawings-extra']
  .flatMap((folder) =>
    existsSync(path.join(corpus, folder))
      ? readdirSync(path.join(corpus, folder)).map((name) => path.join(corpus, folder, name))
      : [],
  )
  .find((candidate) => candidate.endsWith('.pdf') && candidate.includes(fileFilter));
if (!file) {
  console.log(`drawing-ocr: no corpus PDF matches ${fileFilter}; skipping.`);
  process.exit(0);
}

if (!ensureDebianTool('tesseract', ['--version'], 'tesseract-ocr')) {
  console.log('drawing-ocr: native tesseract could not be installed; skipping.');
  process.exit(0);
}

// The engine's traineddata, unpacked for native tesseract: both read with the same model.
const work = mkdtempSync(path.join(tmpdir(), 'drawing-ocr-'));
const require = createRequire(import.meta.url);
const eng = require('@tesseract.js-data/eng') as { langPath: string };
writeFileSync(
  path.join(work, 'eng.traineddata'),
  gunzipSync(readFileSync(path.join(eng.langPath, 'eng.traineddata.gz'))),
);

const cpuSeconds = (since: NodeJS.CpuUsage): number => {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1e6;
};

/** CPU seconds (user + system) of one native tesseract run, read from the shell's `times`, and its words. */
const nativeRead = (png: string, dpi: number): { seconds: number; words: number } => {
  const run = spawnSync(
    'bash',
    [
      '-c',
      `tesseract "$1" "$2" --tessdata-dir "$3" -l eng --oem 1 --psm 3 --dpi ${dpi} -c tessedit_create_tsv=1 -c tessedit_create_txt=0 >/dev/null 2>&1; times`,
      'bash',
      png,
      path.join(work, 'out'),
      work,
    ],
    { env: { ...process.env, OMP_THREAD_LIMIT: '1' }, encoding: 'utf8' },
  );
  // `times` prints the shell's times, then its children's: "0m1.234s 0m0.056s".
  const children = run.stdout.trim().split('\n').at(-1) ?? '';
  const seconds = [...children.matchAll(/(\d+)m([\d.]+)s/g)].reduce(
    (sum, match) => sum + Number(match[1]) * 60 + Number(match[2]),
    0,
  );
  const tsv = readFileSync(path.join(work, 'out.tsv'), 'utf8');
  const words = tsv
    .split('\n')
    .map((row) => row.split('\t'))
    .filter(
      (cells) => cells[0] === '5' && Number(cells[10]) >= MIN_CONFIDENCE && (cells[11] ?? '').trim(),
    ).length;
  return { seconds, words };
};

const bytes = new Uint8Array(readFileSync(file));
const opened = await openPdf(bytes, DEFAULT_LIMITS);
const { pdfium } = opened;
const totals = { render: 0, engine: 0, native: 0, engineWords: 0, nativeWords: 0 };
const dpiFlag = Number(flag('--dpi', '0'));
console.log(`drawing-ocr: ${path.basename(file)} pages ${from}-${to}`);
// One warm-up read so that neither side pays for starting (tesseract.js loads its model once per worker).
let warmedUp = false;
for (let pageNumber = from ?? 1; pageNumber <= (to ?? from ?? 1); pageNumber++) {
  // The engine's whole-drawing read renders with PDFium (drawing-ocr.ts): so does the bench.
  const page = pdfium.page(pageNumber);
  const { geometry } = page;
  const dpi = dpiFlag || drawingDpi([]);
  const tiles = planTiles({ x0: 0, y0: 0, x1: geometry.width, y1: geometry.height }, dpi);
  const sheet = { render: 0, engine: 0, native: 0, engineWords: 0, nativeWords: 0 };
  for (const tile of tiles) {
    let since = process.cpuUsage();
    const rendered = renderPdfiumRegion(page, tile.box, dpi, DEFAULT_LIMITS.maxCanvasPixels);
    sheet.render += cpuSeconds(since);
    const png = path.join(work, 'tile.png');
    writeFileSync(png, rendered.canvas.toBuffer('image/png'));
    if (!warmedUp) {
      await recognize(rendered.canvas, dpi, '3', 600_000);
      warmedUp = true;
    }
    since = process.cpuUsage();
    const engineWords = await recognize(rendered.canvas, dpi, '3', 600_000);
    sheet.engine += cpuSeconds(since);
    sheet.engineWords += engineWords.filter((word) => word.confidence >= MIN_CONFIDENCE).length;
    const native = nativeRead(png, dpi);
    sheet.native += native.seconds;
    sheet.nativeWords += native.words;
  }
  page.close();
  for (const key of Object.keys(totals) as Array<keyof typeof totals>) totals[key] += sheet[key];
  console.log(
    `  p${pageNumber} ${Math.round(geometry.width / 72)}x${Math.round(geometry.height / 72)} in, ${tiles.length} tiles at ${dpi} dpi: ` +
      `render ${sheet.render.toFixed(2)} s, tesseract.js ${sheet.engine.toFixed(2)} s, native ${sheet.native.toFixed(2)} s ` +
      `(${(sheet.engine / sheet.native).toFixed(2)}x); words ${sheet.engineWords} / ${sheet.nativeWords}`,
  );
}
await terminateOcr();
await opened.close();
rmSync(work, { recursive: true, force: true });
const sheets = (to ?? 0) - (from ?? 0) + 1;
console.log(
  `  total ${sheets} sheets: render ${(totals.render / sheets).toFixed(2)} s/sheet, tesseract.js ${(totals.engine / sheets).toFixed(2)} s/sheet, ` +
    `native ${(totals.native / sheets).toFixed(2)} s/sheet; OCR ratio ${(totals.engine / totals.native).toFixed(2)}x native (target <= 1.5x); ` +
    `words ${totals.engineWords} / ${totals.nativeWords}`,
);
recordResult('drawing-ocr', [
  {
    measure: `${sheets} sheets: render / tesseract.js / native tesseract, per sheet`,
    result: `${(totals.render / sheets).toFixed(2)} / ${(totals.engine / sheets).toFixed(2)} / ${(totals.native / sheets).toFixed(2)} s`,
  },
  {
    measure: 'OCR CPU, tesseract.js against native',
    result: `${(totals.engine / totals.native).toFixed(2)}x`,
    target: '<= 1.5x',
  },
]);
