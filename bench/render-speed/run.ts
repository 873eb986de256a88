/**
 * Renders for crops and overlays (the artifacts the API serves), this checkout against a reference commit's
 * engine in the same run.
 *
 *   npm run bench:render-speed -- [--ref <commit>] [--repeat N] [--only <substr>]
 *
 * The reference (default 9f55406, the commit issue 27 was filed against, when artifacts were rendered by
 * pdf.js on @napi-rs/canvas) is checked out in a temporary git worktree that shares this checkout's
 * node_modules. For each drawing set the current engine first reads the sheets (no OCR) and the regions it
 * finds become the plan: every region cropped at 110 dpi (renderRegionCrops, one render per page) and every
 * sheet's overlay at 50 dpi (renderOverlay). Both engines render the same plan in child processes,
 * alternately, `--repeat` times (default 3); the medians of the renders' CPU (engine modules loaded before
 * the clock starts) and the ratio reference / current are printed and recorded (target: >= 3x).
 * Skips without the corpus, or without git history holding the reference.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { median } from '../../functions/engine/geometry.ts';
import { extractDocument } from '../../functions/engine/index.ts';
import { corpusDir, flagValue } from '../args.ts';
import { childLoader } from '../child-node.ts';
import { type BenchFigure, recordResult } from '../results.ts';

const root = path.resolve(import.meta.dirname, '../..');
const ref = flagValue('--ref') ?? '9f55406';
const repeat = Math.max(1, Number(flagValue('--repeat') ?? '3'));
const only = flagValue('--only');
if (!existsSync(corpusDir)) {
  console.log(`render-speed: corpus not found at ${corpusDir}; skipping.`);
  process.exit(0);
}
const git = (...args: string[]) => spawnSync('git', args, { cwd: root, encoding: 'utf8' });
if (git('cat-file', '-e', `${ref}^{commit}`).status !== 0) {
  console.log(`render-speed: commit ${ref} is not in this checkout's history; skipping.`);
  process.exit(0);
}

const cases = [
  { label: 'VA finish plans', file: 'va-renovate-bldg28_finish-plans_drawings.pdf', pages: [1, 2] },
  {
    label: 'Kegonsa set',
    file: 'drawings-extra/openingdesign-lake-kegonsa-home_full-set-2015-01-29_drawings.pdf',
    pages: [1, 12],
  },
  {
    label: '1810 S Park',
    file: 'drawings-extra/openingdesign-1810-s-park-facility-bldg_check-set-2018-09-12_drawings.pdf',
    pages: [1, 6],
  },
  { label: '2977J drawings', file: 'sfpw-2977J-paul-ave-pavement-sewer_drawings.pdf', pages: [1, 10] },
].filter((c) => existsSync(path.join(corpusDir, c.file)) && (!only || c.label.includes(only)));

const work = mkdtempSync(path.join(tmpdir(), 'render-speed-'));
const refTree = path.join(work, 'ref');
if (git('worktree', 'add', '--detach', refTree, ref).status !== 0) throw new Error(`cannot check out ${ref}`);
symlinkSync(path.join(root, 'node_modules'), path.join(refTree, 'node_modules'));
const refIndex = ['functions/engine/index.ts', 'functions/core/extraction/index.ts']
  .map((p) => path.join(refTree, p))
  .find((p) => existsSync(p));
const currentIndex = path.join(root, 'functions/engine/index.ts');

interface ChildResult {
  ms: number;
  cpuSeconds: number;
  images: number;
  pngBytes: number;
  maxRssMb: number;
}
const runChild = (index: string, plan: string, mode: 'crops' | 'overlays'): ChildResult => {
  const r = spawnSync(
    process.execPath,
    [...childLoader(), path.join(import.meta.dirname, 'child.ts'), index, plan, mode],
    {
      encoding: 'utf8',
      cwd: root,
      maxBuffer: 16 * 1024 * 1024,
    },
  );
  if (r.status !== 0) throw new Error(`render child failed (${index}): ${r.stderr}`);
  return JSON.parse(r.stdout.trim().split('\n').pop() ?? '') as ChildResult;
};

const figures: BenchFigure[] = [];
try {
  if (!refIndex) throw new Error(`no engine index in ${ref}`);
  console.log(
    `render-speed: reference ${ref} against this checkout; ${repeat} run(s) each, medians of render CPU`,
  );
  console.log(
    'set              | artifact | images | reference CPU s | current CPU s | ratio | RSS ref / current',
  );
  for (const c of cases) {
    const file = path.join(corpusDir, c.file);
    const [from = 1, to = 1] = c.pages;
    const result = await extractDocument(new Uint8Array(readFileSync(file)), {
      pages: { from, to },
      ocr: false,
    });
    const plan = {
      file,
      pages: result.sheets.map((sheet) => ({
        pageNumber: sheet.pageNumber,
        boxes: sheet.regions.map((region) => region.displayBox),
      })),
    };
    const planPath = path.join(work, `${c.label.replace(/\W+/g, '-')}.json`);
    writeFileSync(planPath, JSON.stringify(plan));
    for (const mode of ['crops', 'overlays'] as const) {
      const runs = Array.from({ length: repeat }, () => ({
        reference: runChild(refIndex, planPath, mode),
        current: runChild(currentIndex, planPath, mode),
      }));
      const refCpu = median(runs.map((r) => r.reference.cpuSeconds));
      const curCpu = median(runs.map((r) => r.current.cpuSeconds));
      const images = runs[0]?.current.images ?? 0;
      const rss = (side: 'reference' | 'current') => Math.max(...runs.map((r) => r[side].maxRssMb));
      const ratio = refCpu / curCpu;
      console.log(
        `${c.label.padEnd(16)} | ${mode.padEnd(8)} | ${String(images).padStart(6)} | ${refCpu.toFixed(2).padStart(15)} | ` +
          `${curCpu.toFixed(2).padStart(13)} | ${ratio.toFixed(1).padStart(4)}x | ${rss('reference')} / ${rss('current')} MB`,
      );
      figures.push({
        measure: `${c.label}: ${images} ${mode === 'crops' ? 'region crops at 110 dpi' : 'sheet overlays at 50 dpi'}, render CPU ${ref} / current, peak RSS`,
        result: `${refCpu.toFixed(2)} s / ${curCpu.toFixed(2)} s = ${ratio.toFixed(1)}x, ${rss('reference')} / ${rss('current')} MB`,
        target: '>= 3x',
      });
    }
  }
  recordResult('render-speed', figures);
} finally {
  git('worktree', 'remove', '--force', refTree);
  rmSync(work, { recursive: true, force: true });
}
