import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { InvalidRequestError } from '../errors.ts';

/**
 * Opaque, tamper-proof pagination cursors. A cursor is `base64url(json).base64url(hmac)`; the JSON
 * binds the endpoint, the organization and a hash of the filters, so a cursor forged, altered, taken
 * from another endpoint, another tenant or another filter set is refused with 400 `invalid_cursor`.
 */
export interface CursorScope {
  endpoint: string;
  orgId: string;
  /** Everything besides the cursor that decides the result set (filters, path ids). */
  filters: Record<string, unknown>;
}

interface CursorBody {
  v: 1;
  e: string;
  o: string;
  f: string;
  p: unknown;
}

function filtersDigest(filters: Record<string, unknown>): string {
  const canonical = JSON.stringify(
    Object.keys(filters)
      .sort()
      .map((key) => [key, filters[key] ?? null]),
  );
  return createHash('sha256').update(canonical).digest('base64url').slice(0, 22);
}

export class CursorCodec {
  private readonly signingKey: string;

  constructor(signingKey: string) {
    this.signingKey = signingKey;
  }

  private sign(payload: string): Buffer {
    return createHmac('sha256', this.signingKey).update(payload).digest();
  }

  encode(scope: CursorScope, position: unknown): string {
    const body: CursorBody = {
      v: 1,
      e: scope.endpoint,
      o: scope.orgId,
      f: filtersDigest(scope.filters),
      p: position,
    };
    const payload = Buffer.from(JSON.stringify(body)).toString('base64url');
    return `${payload}.${this.sign(payload).toString('base64url')}`;
  }

  decode<T>(cursor: string, scope: CursorScope): T {
    const invalid = () =>
      new InvalidRequestError(
        'The cursor is not valid for this request. Use the nextCursor of the previous page unchanged.',
        'invalid_cursor',
      );
    if (cursor.length > 4096) throw invalid();
    const [payload, signature, extra] = cursor.split('.');
    if (!payload || !signature || extra !== undefined) throw invalid();
    const expected = this.sign(payload);
    const presented = Buffer.from(signature, 'base64url');
    if (presented.length !== expected.length || !timingSafeEqual(presented, expected)) throw invalid();
    let body: CursorBody;
    try {
      body = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as CursorBody;
    } catch {
      throw invalid();
    }
    if (
      body.v !== 1 ||
      body.e !== scope.endpoint ||
      body.o !== scope.orgId ||
      body.f !== filtersDigest(scope.filters)
    ) {
      throw invalid();
    }
    return body.p as T;
  }
}

export interface PageEnvelope {
  total: number;
  limit: number;
  cursor: string | null;
  nextCursor: string | null;
  returnedCount: number;
  hasMore: boolean;
  pageInfo: {
    startCursor: string | null;
    endCursor: string | null;
    hasPreviousPage: boolean;
    hasNextPage: boolean;
  };
}

export function pageEnvelope(args: {
  total: number;
  limit: number;
  cursor: string | null;
  nextCursor: string | null;
  returnedCount: number;
}): PageEnvelope {
  const hasMore = args.nextCursor !== null;
  return {
    total: args.total,
    limit: args.limit,
    cursor: args.cursor,
    nextCursor: args.nextCursor,
    returnedCount: args.returnedCount,
    hasMore,
    pageInfo: {
      startCursor: args.cursor,
      endCursor: args.nextCursor,
      hasPreviousPage: args.cursor !== null,
      hasNextPage: hasMore,
    },
  };
}
