import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * Debian's Chromium for the browser tests (Playwright's own browser downloads cannot run here). When it
 * is missing and we are root, it is installed with apt-get; otherwise the test fails, saying how to get it.
 */
export function ensureChromium(): string {
  if (existsSync(CHROMIUM)) return CHROMIUM;
  const isRoot = process.getuid?.() === 0;
  if (!isRoot) {
    throw new Error(
      `Chromium is missing at ${CHROMIUM}, and installing it needs root: run \`sudo apt-get install -y chromium\` ` +
        '(Debian) or set CHROMIUM_PATH to a Chromium or Chrome binary.',
    );
  }
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  console.log('Installing Debian chromium for the browser tests (apt-get)…');
  execFileSync('apt-get', ['update'], { stdio: 'inherit', env });
  execFileSync('apt-get', ['install', '-y', '--no-install-recommends', 'chromium'], {
    stdio: 'inherit',
    env,
  });
  if (!existsSync(CHROMIUM)) throw new Error(`apt-get installed chromium but ${CHROMIUM} does not exist.`);
  return CHROMIUM;
}

if (process.argv[1]?.endsWith('chromium.ts')) console.log(ensureChromium());
