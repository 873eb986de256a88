import { spawnSync } from 'node:child_process';

/** Poppler's pdftotext, the reference of the speed benches; installed with apt-get when missing. */
export function ensurePoppler(): boolean {
  if (spawnSync('pdftotext', ['-v']).status === 0) return true;
  console.log('pdftotext missing: installing poppler-utils with apt-get ...');
  const install = spawnSync(
    'sh',
    ['-c', 'apt-get install -y poppler-utils || (apt-get update && apt-get install -y poppler-utils)'],
    { stdio: 'inherit' },
  );
  return install.status === 0 && spawnSync('pdftotext', ['-v']).status === 0;
}

/** Seconds of one single-process `pdftotext` run over the whole file (text to /dev/null). */
export function pdftotextSeconds(path: string, extraArgs: string[] = []): number {
  const started = performance.now();
  const run = spawnSync('pdftotext', [...extraArgs, path, '/dev/null']);
  if (run.status !== 0) throw new Error(`pdftotext failed on ${path}: ${run.stderr}`);
  return (performance.now() - started) / 1000;
}
