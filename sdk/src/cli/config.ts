import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

/** Where `psa login` keeps the key: $PSA_CONFIG_DIR, else $XDG_CONFIG_HOME/psa, else ~/.config/psa. */
export function configDir(): string {
  if (process.env.PSA_CONFIG_DIR) return process.env.PSA_CONFIG_DIR;
  const base = process.env.XDG_CONFIG_HOME || join(homedir(), '.config');
  return join(base, 'psa');
}

export interface StoredConfig {
  apiUrl: string;
  apiKey: string;
}

const API_URL = /^https?:\/\/[^/\s]+$/;
const API_KEY = /^psk_[A-Za-z0-9_-]{10,200}$/;

export function validApiUrl(value: string): string {
  const trimmed = value.trim().replace(/\/+$/, '');
  if (!API_URL.test(trimmed))
    throw new Error(`Not an API base URL (scheme and host only): ${trimmed.slice(0, 100)}`);
  return trimmed;
}

export function validApiKey(value: string): string {
  const trimmed = value.trim();
  // Never echo the value: it may be a real key with a typo.
  if (!API_KEY.test(trimmed)) throw new Error('That is not an API key (they look like psk_...).');
  return trimmed;
}

/** Written with mode 0600 in a 0700 folder, and made so again if it already existed with wider modes. */
function writePrivate(path: string, contents: string): void {
  mkdirSync(configDir(), { recursive: true, mode: 0o700 });
  writeFileSync(path, contents, { mode: 0o600 });
  chmodSync(path, 0o600);
}

export function saveConfig(config: StoredConfig): string {
  const path = join(configDir(), 'config.json');
  writePrivate(path, `${JSON.stringify(config, null, 2)}\n`);
  return path;
}

export function loadConfig(): Partial<StoredConfig> {
  const path = join(configDir(), 'config.json');
  if (!existsSync(path)) return {};
  const parsed = JSON.parse(readFileSync(path, 'utf8')) as Partial<StoredConfig>;
  return {
    ...(typeof parsed.apiUrl === 'string' ? { apiUrl: parsed.apiUrl } : {}),
    ...(typeof parsed.apiKey === 'string' ? { apiKey: parsed.apiKey } : {}),
  };
}

/** The saved state of an upload to a job, so that running the same command again resumes it. */
export function uploadStatePath(jobId: string): string {
  if (!/^[A-Za-z0-9_-]{1,128}$/.test(jobId)) throw new Error('Not a job id.');
  return join(configDir(), 'uploads', `${jobId}.json`);
}

export function saveUploadState(jobId: string, state: unknown): void {
  mkdirSync(join(configDir(), 'uploads'), { recursive: true, mode: 0o700 });
  writePrivate(uploadStatePath(jobId), JSON.stringify(state));
}

export function loadUploadState(jobId: string): unknown {
  const path = uploadStatePath(jobId);
  return existsSync(path) ? JSON.parse(readFileSync(path, 'utf8')) : undefined;
}

export function clearUploadState(jobId: string): void {
  rmSync(uploadStatePath(jobId), { force: true });
}
