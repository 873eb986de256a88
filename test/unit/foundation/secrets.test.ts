import { describe, expect, it } from 'vitest';
import {
  API_KEY_HASH_VERSION,
  generateApiKey,
  hashSecret,
  parseApiKeyToken,
  secretMatches,
} from '../../../functions/core/auth/secrets.ts';

describe('API key secrets', () => {
  it('generates a token whose secret only matches its own hash', () => {
    const key = generateApiKey();
    const parsed = parseApiKeyToken(key.token);
    expect(parsed?.keyId).toBe(key.keyId);
    expect(key.token.startsWith(`${key.keyPrefix}_`)).toBe(true);
    expect(key.secretHash).not.toContain(parsed?.secret ?? '-');
    expect(secretMatches(parsed?.secret ?? '', key.secretHash, API_KEY_HASH_VERSION)).toBe(true);
    expect(secretMatches(`${parsed?.secret}x`, key.secretHash, API_KEY_HASH_VERSION)).toBe(false);
    expect(secretMatches(parsed?.secret ?? '', generateApiKey().secretHash, API_KEY_HASH_VERSION)).toBe(
      false,
    );
    expect(secretMatches(parsed?.secret ?? '', key.secretHash, 'bcrypt-v0')).toBe(false);
  });

  it('refuses tokens of the wrong shape', () => {
    for (const token of ['', 'psk_', 'psk_abc_def', `psk_${'a'.repeat(16)}_${'b'.repeat(42)}`, 'Bearer x']) {
      expect(parseApiKeyToken(token)).toBeNull();
    }
  });

  it('never returns the same key twice', () => {
    const ids = new Set(Array.from({ length: 200 }, () => generateApiKey().keyId));
    expect(ids.size).toBe(200);
    expect(hashSecret('a')).toHaveLength(64);
  });
});
