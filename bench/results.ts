/**
 * The latest result of each bench, kept under `bench/results/<bench>.json` (committed) and rendered into
 * `docs/benchmarks.md` by `npm run bench:report`. A bench calls `recordResult` once with the figures it
 * printed; a later run replaces the file, so the document always shows the last measure with its command,
 * machine and date.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join, resolve } from 'node:path';

export const RESULTS_DIR = resolve(import.meta.dirname ?? '.', 'results');

export interface BenchFigure {
  measure: string;
  result: string;
  target?: string;
}

export interface BenchResult {
  bench: string;
  /** What to type to measure it again. */
  command: string;
  machine: string;
  /** ISO date (UTC) of the run. */
  date: string;
  figures: BenchFigure[];
  /** Set when the figures were copied from an earlier write-up rather than written by the bench itself. */
  source?: string;
}

/** The machine as a reader needs it to compare figures: cores, CPU model, memory, Node version. */
export function describeMachine(): string {
  const cores = cpus();
  const memoryGb = (totalmem() / 1024 ** 3).toFixed(0);
  return `${cores.length} cores (${cores[0]?.model.trim() ?? 'unknown CPU'}), ${memoryGb} GB, Node ${process.version}, ${process.platform}-${process.arch}`;
}

/** Writes the bench's latest result; `bench` is the name after `bench:` in package.json. */
export function recordResult(bench: string, figures: BenchFigure[], argv = process.argv.slice(2)): string {
  const result: BenchResult = {
    bench,
    command: `npm run bench:${bench}${argv.length > 0 ? ` -- ${argv.join(' ')}` : ''}`,
    machine: describeMachine(),
    date: new Date().toISOString().slice(0, 10),
    figures,
  };
  mkdirSync(RESULTS_DIR, { recursive: true });
  const file = join(RESULTS_DIR, `${bench}.json`);
  writeFileSync(file, `${JSON.stringify(result, null, 2)}\n`);
  console.log(`latest result written to ${file} (npm run bench:report renders docs/benchmarks.md)`);
  return file;
}

export function readResults(dir = RESULTS_DIR): BenchResult[] {
  return readdirSync(dir)
    .filter((name) => name.endsWith('.json'))
    .sort()
    .map((name) => JSON.parse(readFileSync(join(dir, name), 'utf8')) as BenchResult);
}
