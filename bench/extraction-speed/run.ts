/**
 * Speed and memory of the extraction engine, side by side with poppler's `pdftotext -bbox-layout` on the
 * same pages in the same run.
 *
 *   npm run bench:extraction-speed -- [--workers N] [--ocr-sheets N] [--repeat N] [--only text|sheet]
 *
 * Reports ms/page for text-layer spec pages (the 834-page project manual) and for drawing sheets (text
 * layer, OCR off), the ratio to poppler, the peak RSS of the engine's process, and OCR seconds per
 * outlined sheet. Each case runs the engine and poppler alternately `--repeat` times (default 3) and
 * reports the medians, so a noisy neighbour on the machine moves both sides rather than one ratio; the OCR
 * case runs `--repeat` times too and reports the median CPU per sheet.
 * Installs poppler-utils with apt-get when pdftotext is missing. Skips without the corpus.
 */

import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { median } from '../../functions/engine/geometry.ts';
import { corpusDir, flagValue } from '../args.ts';
import { childLoader } from '../child-node.ts';
import { ensurePoppler } from '../poppler.ts';
import { type BenchFigure, recordResult } from '../results.ts';

const flag = (name: string, fallback: string): string => flagValue(name) ?? fallback;
const corpus = corpusDir;
if (!existsSync(corpus)) {
  console.log(`extraction-speed: corpus not found at ${corpus}; skipping.`);
  process.exit(0);
}

const workers = flag('--workers', '2');
const repeat = Math.max(1, Number(flag('--repeat', '3')));
const only = flag('--only', 'all');
const ocrSheets = Number(flag('--ocr-sheets', '3'));
const child = path.join(import.meta.dirname, 'child.ts');

interface ChildResult {
  ms: number;
  cpuSeconds: number;
  pages: number;
  maxRssMb: number;
  ocrSeconds: number;
  ocrPages: number;
}

/** Runs the engine in a child process so its peak RSS (all threads) is measured alone. */
const runEngine = (file: string, from: number, to: number, ocr: boolean, w: string): ChildResult => {
  const r = spawnSync(
    process.execPath,
    [...childLoader(), child, file, String(from), String(to), ocr ? 'ocr' : 'no-ocr', w],
    {
      encoding: 'utf8',
      maxBuffer: 16 * 1024 * 1024,
    },
  );
  if (r.status !== 0) throw new Error(`engine child failed: ${r.stderr}`);
  return JSON.parse(r.stdout.trim().split('\n').pop() ?? '') as ChildResult;
};

/** pdftotext -bbox-layout over the range, split over `procs` processes. */
const runPoppler = async (file: string, from: number, to: number, procs: number): Promise<number> => {
  const dir = mkdtempSync(path.join(tmpdir(), 'poppler-'));
  const started = performance.now();
  const per = Math.ceil((to - from + 1) / procs);
  await Promise.all(
    Array.from({ length: procs }, (_, i) => {
      const a = from + i * per;
      const b = Math.min(to, a + per - 1);
      if (a > b) return Promise.resolve();
      return new Promise<void>((resolve, reject) => {
        const p = spawn('pdftotext', [
          '-cropbox',
          '-bbox-layout',
          '-f',
          String(a),
          '-l',
          String(b),
          file,
          path.join(dir, `${i}.html`),
        ]);
        p.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`pdftotext exited ${code}`))));
      });
    }),
  );
  const ms = performance.now() - started;
  rmSync(dir, { recursive: true, force: true });
  return ms;
};

const hasPoppler = ensurePoppler();
/** The latest figures for docs/benchmarks.md, one per case. */
const figures: BenchFigure[] = [];
const fmt = (v: number): string => v.toFixed(1);

interface Case {
  label: string;
  file: string;
  from: number;
  to: number;
}

const textCases: Case[] = [
  {
    label: 'spec book 2977J (834 pp)',
    file: 'sfpw-2977J-paul-ave-pavement-sewer_project-manual.pdf',
    from: 1,
    to: 834,
  },
  {
    label: 'spec book 1243I (775 pp)',
    file: 'sfpw-1243I-pavement-renovation-54-sewer_project-manual.pdf',
    from: 1,
    to: 775,
  },
];
const sheetCases: Case[] = [
  {
    label: 'VA finish plans (2 sheets)',
    file: 'va-renovate-bldg28_finish-plans_drawings.pdf',
    from: 1,
    to: 2,
  },
  {
    label: 'Kegonsa set (12 sheets)',
    file: 'drawings-extra/openingdesign-lake-kegonsa-home_full-set-2015-01-29_drawings.pdf',
    from: 1,
    to: 12,
  },
  {
    label: '1810 S Park (6 sheets)',
    file: 'drawings-extra/openingdesign-1810-s-park-facility-bldg_check-set-2018-09-12_drawings.pdf',
    from: 1,
    to: 6,
  },
  {
    label: '2977J drawings (39 sheets)',
    file: 'sfpw-2977J-paul-ave-pavement-sewer_drawings.pdf',
    from: 1,
    to: 39,
  },
];

console.log(
  `extraction-speed: engine workers=${workers}; ${repeat} run(s) per case, medians; poppler ${hasPoppler ? 'available' : 'NOT available'}`,
);
console.log(
  'kind   | document                        | pages | engine ms/pg | poppler 1p ms/pg | poppler 2p ms/pg | ratio (1p) | ratio (2p) | engine peak RSS',
);
for (const [kind, cases] of [
  ['text', textCases],
  ['sheet', sheetCases],
] as const) {
  if (only !== 'all' && only !== kind) continue;
  for (const c of cases) {
    const file = path.join(corpus, c.file);
    if (!existsSync(file)) continue;
    const pages = c.to - c.from + 1;
    const runs: { engine: ChildResult; p1: number; p2: number }[] = [];
    for (let i = 0; i < repeat; i++) {
      const engine = runEngine(file, c.from, c.to, false, workers);
      const p1 = hasPoppler ? await runPoppler(file, c.from, c.to, 1) : Number.NaN;
      const p2 = hasPoppler ? await runPoppler(file, c.from, c.to, 2) : Number.NaN;
      runs.push({ engine, p1, p2 });
    }
    const e = median(runs.map((r) => r.engine.ms)) / pages;
    const p1 = median(runs.map((r) => r.p1)) / pages;
    const p2 = median(runs.map((r) => r.p2)) / pages;
    const rss = Math.max(...runs.map((r) => r.engine.maxRssMb));
    console.log(
      `${kind.padEnd(6)} | ${c.label.padEnd(31)} | ${String(pages).padStart(5)} | ${fmt(e).padStart(12)} | ` +
        `${fmt(p1).padStart(16)} | ${fmt(p2).padStart(16)} | ${(e / p1).toFixed(2).padStart(9)}x | ` +
        `${(e / p2).toFixed(2).padStart(9)}x | ${rss} MB`,
    );
    figures.push({
      measure: `${kind} ${c.label}: engine ms/page, ratio to pdftotext (1 / 2 processes), peak RSS (workers ${workers})`,
      result: `${fmt(e)} ms, ${(e / p1).toFixed(2)}x / ${(e / p2).toFixed(2)}x, ${rss} MB`,
      ...(kind === 'text' ? { target: '<= 1.5x (1 process), < 1 GB' } : {}),
    });
    if (repeat > 1) {
      const each = runs.map((r) => `${fmt(r.engine.ms / pages)}/${fmt(r.p1 / pages)}`).join(', ');
      console.log(`       |   runs (engine/poppler 1p ms per page): ${each}`);
    }
  }
}

if (ocrSheets > 0) {
  const file = path.join(corpus, 'sfpw-2977J-paul-ave-pavement-sewer_drawings.pdf');
  if (existsSync(file)) {
    // `--repeat` runs, the median reported: the CPU of the same run varies by about 5 % on a shared machine.
    const runs = Array.from({ length: repeat }, () => runEngine(file, 6, 5 + ocrSheets, true, '1'));
    const cpuPerSheet = runs.map((run) => run.cpuSeconds / ocrSheets);
    const r = runs[0] as ChildResult;
    console.log(
      `ocr    | 2977J outlined sheets 6-${5 + ocrSheets}: ${r.ocrPages} sheets OCR'd, ` +
        `${fmt(median(runs.map((run) => run.ocrSeconds)) / Math.max(1, r.ocrPages))} s OCR per sheet, ` +
        `${fmt(median(runs.map((run) => run.ms)) / 1000 / ocrSheets)} s per sheet in total, ` +
        `${median(cpuPerSheet).toFixed(2)} s CPU per sheet in total (target <= 2; median of ${repeat}), ` +
        `peak RSS ${Math.max(...runs.map((run) => run.maxRssMb))} MB`,
    );
    figures.push({
      measure: `OCR of the 2977J outlined sheets 6-${5 + ocrSheets}: CPU per sheet (median of ${repeat}), peak RSS`,
      result: `${median(cpuPerSheet).toFixed(2)} s, ${Math.max(...runs.map((run) => run.maxRssMb))} MB`,
      target: '<= 2 s',
    });
    if (repeat > 1)
      console.log(
        `       |   runs (CPU s per sheet): ${cpuPerSheet.map((cpu) => cpu.toFixed(2)).join(', ')}`,
      );
  }
}

// From a run of every case only (`--only` would replace the figures with a part).
if (only !== 'all')
  console.log('(a part of the cases: bench/results/extraction-speed.json is left as it was)');
else if (figures.length > 0) recordResult('extraction-speed', figures);
