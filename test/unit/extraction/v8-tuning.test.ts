import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const tuning = new URL('../../../functions/engine/io/v8-tuning.ts', import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), 'v8-tuning-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/**
 * A fresh process runs a hot loop named like pdf.js's (`promiseBody`) and one named otherwise, each until
 * V8 has had every chance to reach its top tier, and says which did (V8's own optimization status).
 */
const reachesTurbofan = (tuned: boolean): { promiseBody: boolean; otherLoop: boolean } => {
  const script = join(dir, 'probe.mjs');
  writeFileSync(
    script,
    [
      `import { tuneV8ForPdfJs } from ${JSON.stringify(tuning)};`,
      tuned ? 'tuneV8ForPdfJs();' : '',
      // V8 filters by the name a function is declared with.
      'function promiseBody(n) { let s = 0; for (let i = 0; i < n; i++) s += i % 7; return s; }',
      'function otherLoop(n) { let s = 0; for (let i = 0; i < n; i++) s += i % 7; return s; }',
      'const TURBOFANNED = 1 << 6;',
      'const status = (f) => { for (let k = 0; k < 20000; k++) f(50); return (%GetOptimizationStatus(f) & TURBOFANNED) !== 0; };',
      'console.log(JSON.stringify({ promiseBody: status(promiseBody), otherLoop: status(otherLoop) }));',
    ].join('\n'),
  );
  const run = spawnSync(
    process.execPath,
    ['--allow-natives-syntax', '--no-concurrent-recompilation', script],
    { encoding: 'utf8' },
  );
  if (run.status !== 0) throw new Error(run.stderr);
  return JSON.parse(run.stdout) as { promiseBody: boolean; otherLoop: boolean };
};

describe('the V8 setting for pdf.js', () => {
  it("keeps loops named like pdf.js's content-stream loop off TurboFan, and only them", () => {
    // Act
    const untuned = reachesTurbofan(false);
    const tuned = reachesTurbofan(true);

    // Assess: without the setting both loops reach TurboFan (the probe can tell); with it only the other one.
    expect(untuned).toEqual({ promiseBody: true, otherLoop: true });
    expect(tuned).toEqual({ promiseBody: false, otherLoop: true });
  });
});
