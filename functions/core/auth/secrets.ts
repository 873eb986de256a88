import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * API key and session secrets. Only a hash is ever stored. Secrets carry 256 bits of randomness,
 * so a fast hash is safe (nothing to brute force) and keeps authentication cheap on every request.
 * `hashVersion` names the scheme so it can change without invalidating existing keys.
 */
export const API_KEY_HASH_VERSION = 'sha256-v1';

const KEY_ID_ALPHABET = 'abcdefghijkmnpqrstuvwxyz23456789';
const TOKEN_PATTERN = /^psk_([a-km-np-z2-9]{16})_([A-Za-z0-9_-]{43})$/;

export interface GeneratedApiKey {
  keyId: string;
  /** Shown in listings so a person can tell keys apart: `psk_<keyId>`. */
  keyPrefix: string;
  /** The full bearer token, returned exactly once at creation. */
  token: string;
  secretHash: string;
  hashVersion: string;
}

function randomId(length: number): string {
  const bytes = randomBytes(length);
  let id = '';
  for (const byte of bytes) id += KEY_ID_ALPHABET[byte % KEY_ID_ALPHABET.length];
  return id;
}

export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

export function generateApiKey(): GeneratedApiKey {
  const keyId = randomId(16);
  const secret = randomBytes(32).toString('base64url');
  return {
    keyId,
    keyPrefix: `psk_${keyId}`,
    token: `psk_${keyId}_${secret}`,
    secretHash: hashSecret(secret),
    hashVersion: API_KEY_HASH_VERSION,
  };
}

export function parseApiKeyToken(token: string): { keyId: string; secret: string } | null {
  const match = TOKEN_PATTERN.exec(token);
  if (!match) return null;
  return { keyId: match[1] as string, secret: match[2] as string };
}

/** Constant-time comparison of a presented secret with the stored hash. */
export function secretMatches(secret: string, storedHash: string, hashVersion: string): boolean {
  if (hashVersion !== API_KEY_HASH_VERSION) return false;
  const presented = Buffer.from(hashSecret(secret), 'hex');
  const stored = Buffer.from(storedHash, 'hex');
  return presented.length === stored.length && timingSafeEqual(presented, stored);
}

export function generateSessionToken(): { token: string; tokenHash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, tokenHash: hashSecret(token) };
}

/** Loose shape check of a key id taken from a path, so junk never reaches a key expression. */
export function isWellFormedKeyId(keyId: string): boolean {
  return keyId.length === 16 && [...keyId].every((character) => KEY_ID_ALPHABET.includes(character));
}
