import { randomBytes } from 'node:crypto';

const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';

/**
 * Time-ordered identifiers (`prj_0k3v...`): 10 characters of millisecond time then 16 random ones,
 * so sorting by id sorts by creation time, which is what newest-first listings query on.
 */
export function newId(prefix: string, now: number = Date.now()): string {
  let time = '';
  let rest = now;
  for (let i = 0; i < 10; i++) {
    time = ALPHABET[rest % 32] + time;
    rest = Math.floor(rest / 32);
  }
  let random = '';
  for (const byte of randomBytes(16)) random += ALPHABET[byte % 32];
  return `${prefix}_${time}${random}`;
}

/** Loose shape check for ids taken from paths, so junk never reaches a key expression. */
export function isWellFormedId(prefix: string, value: string): boolean {
  return new RegExp(`^${prefix}_[0-9a-z]{26}$`).test(value);
}
