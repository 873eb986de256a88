import { z } from 'zod';
import { SCOPES, type Scope } from './scopes.ts';

export const ScopeSchema = z.enum(SCOPES);

export const ApiKeySchema = z.object({
  id: z.string(),
  label: z.string(),
  keyPrefix: z.string().describe('First part of the token (`psk_<id>`), shown to tell keys apart.'),
  scopes: z.array(ScopeSchema),
  createdByUserId: z.string(),
  hashVersion: z
    .string()
    .describe('Scheme of the stored hash of the secret; the secret itself is never stored.'),
  createdAt: z.string(),
  expiresAt: z.string().nullable(),
  lastUsedAt: z.string().nullable().describe('Null until the key is first used.'),
  lastUsedIp: z.string().nullable(),
  revokedAt: z.string().nullable(),
  rateLimitPerMinute: z
    .number()
    .int()
    .nullable()
    .describe('Requests per minute allowed for this key; null means the service default.'),
});
export type ApiKey = z.infer<typeof ApiKeySchema>;

export interface ApiKeyRecord extends ApiKey {
  orgId: string;
  secretHash: string;
}

/** Who is calling, once authenticated. */
export interface Principal {
  orgId: string;
  kind: 'apiKey' | 'session';
  keyId: string | null;
  userId: string;
  scopes: readonly Scope[];
  /** Per-key override of the default rate limit. */
  rateLimitPerMinute: number | null;
}

export function toPublicApiKey(record: ApiKeyRecord): ApiKey {
  return {
    id: record.id,
    label: record.label,
    keyPrefix: record.keyPrefix,
    scopes: record.scopes,
    createdByUserId: record.createdByUserId,
    hashVersion: record.hashVersion,
    createdAt: record.createdAt,
    expiresAt: record.expiresAt,
    lastUsedAt: record.lastUsedAt,
    lastUsedIp: record.lastUsedIp,
    revokedAt: record.revokedAt,
    rateLimitPerMinute: record.rateLimitPerMinute,
  };
}
