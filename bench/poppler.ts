import { spawnSync } from 'node:child_process';

/** A reference program of the benches (`command` run with `versionArgs`), installed from Debian's `pkg` when missing. */
export function ensureDebianTool(command: string, versionArgs: string[], pkg: string): boolean {
  if (spawnSync(command, versionArgs).status === 0) return true;
  console.log(`${command} missing: installing ${pkg} with apt-get ...`);
  const install = spawnSync(
    'sh',
    ['-c', `apt-get install -y ${pkg} || (apt-get update && apt-get install -y ${pkg})`],
    { stdio: 'inherit' },
  );
  return install.status === 0 && spawnSync(command, versionArgs).status === 0;
}

/** Poppler's pdftotext, the reference of the speed benches; installed with apt-get when missing. */
export const ensurePoppler = (): boolean => ensureDebianTool('pdftotext', ['-v'], 'poppler-utils');

/** Seconds of one single-process `pdftotext` run over the whole file (text to /dev/null). */
export function pdftotextSeconds(path: string, extraArgs: string[] = []): number {
  const started = performance.now();
  const run = spawnSync('pdftotext', [...extraArgs, path, '/dev/null']);
  if (run.status !== 0) throw new Error(`pdftotext failed on ${path}: ${run.stderr}`);
  return (performance.now() - started) / 1000;
}
