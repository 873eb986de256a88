import type { Page } from '../pagination/page.ts';
import type { ApiKeyRecord } from './model.ts';

export interface ApiKeyStore {
  put(record: ApiKeyRecord): Promise<void>;
  get(keyId: string): Promise<ApiKeyRecord | null>;
  listByOrg(orgId: string, options: { limit: number; position: unknown | null }): Promise<Page<ApiKeyRecord>>;
  countByOrg(orgId: string): Promise<number>;
  /** Sets revokedAt once; returns the record as stored afterwards, or null when absent. */
  revoke(orgId: string, keyId: string, at: string): Promise<ApiKeyRecord | null>;
  recordUse(keyId: string, at: string, ip: string): Promise<void>;
}

export interface SessionRecord {
  orgId: string;
  userId: string;
  expiresAt: string;
}

export interface SessionStore {
  get(tokenHash: string): Promise<SessionRecord | null>;
}

export interface RateLimiter {
  /** Counts one request; returns seconds to wait when the subject is over its limit, else null. */
  hit(subject: string, limitPerMinute: number): Promise<number | null>;
}
