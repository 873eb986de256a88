import { NotFoundError, UnauthorizedError } from '../errors.ts';
import type { CursorCodec } from '../pagination/cursor.ts';
import { type PageEnvelope, pageEnvelope } from '../pagination/page.ts';
import type { ApiKey, ApiKeyRecord, Principal } from './model.ts';
import { toPublicApiKey } from './model.ts';
import { checkKeyRateLimit, type PlanLookup } from './plans.ts';
import type { ApiKeyStore, SessionStore } from './ports.ts';
import type { Scope } from './scopes.ts';
import { generateApiKey, hashSecret, isWellFormedKeyId, parseApiKeyToken, secretMatches } from './secrets.ts';

const LAST_USED_RESOLUTION_MS = 60_000;

/**
 * Create an API key.
 * Input: the session principal, label, scopes, optional expiry and request rate.
 * Output: the key and its secret token (returned once; only its hash is stored).
 * Steps: refuse a rate above the organization's plan; store the key with the secret's hash only.
 */
export async function createApiKey(
  deps: { keys: ApiKeyStore; plans: PlanLookup },
  input: {
    principal: Principal;
    label: string;
    scopes: Scope[];
    expiresAt: string | null;
    rateLimitPerMinute?: number | null;
  },
): Promise<{ key: ApiKey; secret: string }> {
  checkKeyRateLimit(await deps.plans.planOf(input.principal.orgId), input.rateLimitPerMinute);
  const generated = generateApiKey();
  const record: ApiKeyRecord = {
    id: generated.keyId,
    orgId: input.principal.orgId,
    label: input.label,
    keyPrefix: generated.keyPrefix,
    scopes: [...new Set(input.scopes)],
    createdByUserId: input.principal.userId,
    hashVersion: generated.hashVersion,
    secretHash: generated.secretHash,
    createdAt: new Date().toISOString(),
    expiresAt: input.expiresAt,
    lastUsedAt: null,
    lastUsedIp: null,
    revokedAt: null,
    rateLimitPerMinute: input.rateLimitPerMinute ?? null,
  };
  await deps.keys.put(record);
  return { key: toPublicApiKey(record), secret: generated.token };
}

export async function revokeApiKey(
  deps: { keys: ApiKeyStore },
  input: { principal: Principal; keyId: string },
): Promise<ApiKey> {
  const notFound = new NotFoundError('api_key_not_found', 'API key not found.');
  if (!isWellFormedKeyId(input.keyId)) throw notFound;
  const record = await deps.keys.revoke(input.principal.orgId, input.keyId, new Date().toISOString());
  if (!record) throw notFound;
  return toPublicApiKey(record);
}

const UNAUTHORIZED_MESSAGE = 'A valid API key is required: send "Authorization: Bearer <API_KEY>".';

/** Bearer token -> principal. Every failure is the same 401, so nothing tells a guesser which part was wrong. */
export async function authenticateApiKey(
  deps: { keys: Pick<ApiKeyStore, 'get' | 'recordUse'> },
  input: { authorization: string | undefined; sourceIp: string; now?: Date },
): Promise<Principal> {
  // RFC 9110 section 11.1: the scheme name is case-insensitive (`bearer`, `BEARER`).
  const match = /^Bearer +([^\s]+)$/i.exec(input.authorization?.trim() ?? '');
  const parsed = match ? parseApiKeyToken(match[1] as string) : null;
  if (!parsed) throw new UnauthorizedError(UNAUTHORIZED_MESSAGE);
  const record = await deps.keys.get(parsed.keyId);
  // Compare even when the key is absent so timing does not reveal which key ids exist.
  const valid = secretMatches(
    parsed.secret,
    record?.secretHash ?? hashSecret(''),
    record?.hashVersion ?? 'sha256-v1',
  );
  const now = input.now ?? new Date();
  if (!record || !valid || record.revokedAt !== null) throw new UnauthorizedError(UNAUTHORIZED_MESSAGE);
  if (record.expiresAt !== null && Date.parse(record.expiresAt) <= now.getTime()) {
    throw new UnauthorizedError(UNAUTHORIZED_MESSAGE);
  }
  if (record.lastUsedAt === null || now.getTime() - Date.parse(record.lastUsedAt) > LAST_USED_RESOLUTION_MS) {
    await deps.keys.recordUse(record.id, now.toISOString(), input.sourceIp);
  }
  return {
    orgId: record.orgId,
    kind: 'apiKey',
    keyId: record.id,
    userId: record.createdByUserId,
    scopes: record.scopes,
    rateLimitPerMinute: record.rateLimitPerMinute,
  };
}

/**
 * Whether the key a request authenticated with still holds: not revoked, not expired. A long
 * connection (the review stream) asks again as it goes, so a revoked key stops within its bound.
 */
export async function keyStillValid(
  deps: { keys: ApiKeyStore },
  principal: Principal,
  now = new Date(),
): Promise<boolean> {
  if (principal.kind !== 'apiKey' || principal.keyId === null) return true;
  const record = await deps.keys.get(principal.keyId);
  return (
    record !== null &&
    record.orgId === principal.orgId &&
    record.revokedAt === null &&
    (record.expiresAt === null || Date.parse(record.expiresAt) > now.getTime())
  );
}

export const SESSION_COOKIE = 'service_session';

export async function authenticateSession(
  deps: { sessions: SessionStore },
  input: { cookies: string[]; authorization: string | undefined; now?: Date },
): Promise<Principal> {
  const message = `This route needs a session: send the cookie "${SESSION_COOKIE}". API keys are not accepted here.`;
  if (input.authorization !== undefined) throw new UnauthorizedError(message);
  let token: string | undefined;
  for (const cookie of input.cookies) {
    for (const part of cookie.split(';')) {
      const [name, ...rest] = part.trim().split('=');
      if (name === SESSION_COOKIE) token = rest.join('=');
    }
  }
  if (!token || token.length > 512) throw new UnauthorizedError(message);
  const session = await deps.sessions.get(hashSecret(token));
  const now = input.now ?? new Date();
  if (!session || Date.parse(session.expiresAt) <= now.getTime()) throw new UnauthorizedError(message);
  return {
    orgId: session.orgId,
    kind: 'session',
    keyId: null,
    userId: session.userId,
    scopes: [],
    rateLimitPerMinute: null,
  };
}

export async function listApiKeys(
  deps: { keys: ApiKeyStore; cursors: CursorCodec },
  input: { orgId: string; limit: number; cursor: string | undefined },
): Promise<PageEnvelope & { keys: ApiKey[] }> {
  const scope = { endpoint: 'listApiKeys', orgId: input.orgId, filters: {} };
  const position = input.cursor ? deps.cursors.decode(input.cursor, scope) : null;
  const [page, total] = await Promise.all([
    deps.keys.listByOrg(input.orgId, { limit: input.limit, position }),
    deps.keys.countByOrg(input.orgId),
  ]);
  const nextCursor = page.nextPosition === null ? null : deps.cursors.encode(scope, page.nextPosition);
  return {
    keys: page.items.map(toPublicApiKey),
    ...pageEnvelope({
      total,
      limit: input.limit,
      cursor: input.cursor ?? null,
      nextCursor,
      returnedCount: page.items.length,
    }),
  };
}
