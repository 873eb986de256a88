import { LRUCache } from 'lru-cache';
import type { ApiKeyRecord } from './model.ts';
import type { ApiKeyStore } from './ports.ts';

/**
 * The keys a function has verified, kept for `ttlMs` of its life: every request still checks the
 * secret against the stored hash, the scopes and the expiry, but without a read of the table. The
 * price is the revocation bound: a key revoked elsewhere is refused by this function at most `ttlMs`
 * after the revocation (the review stream asks the table itself as it goes: `keyStillValid`). Only
 * keys found are kept (a guessed key id costs a read each time, and cannot fill the cache).
 */
export function cachedKeyReads(
  store: ApiKeyStore,
  options: { ttlMs: number; max?: number; perf?: { now(): number } },
): Pick<ApiKeyStore, 'get' | 'recordUse'> {
  const cache =
    options.ttlMs > 0
      ? new LRUCache<string, ApiKeyRecord>({
          max: options.max ?? 1_000,
          ttl: options.ttlMs,
          ttlResolution: 0,
          ...(options.perf ? { perf: options.perf } : {}),
        })
      : null;
  return {
    async get(keyId) {
      const cached = cache?.get(keyId);
      if (cached) return cached;
      const record = await store.get(keyId);
      if (record) cache?.set(keyId, record);
      return record;
    },
    async recordUse(keyId, at, ip) {
      await store.recordUse(keyId, at, ip);
      // The kept record learns its use too, or each request after a minute would record it again.
      const cached = cache?.get(keyId, { updateAgeOnGet: false });
      if (cached) cache?.set(keyId, { ...cached, lastUsedAt: at, lastUsedIp: ip }, { noUpdateTTL: true });
    },
  };
}
