import { createHash } from 'node:crypto';
import { InvalidRequestError } from '../errors.ts';
import { HmacSigner } from '../signing/signer.ts';

/**
 * Opaque, tamper-proof pagination cursors, sealed by the one `HmacSigner`; the JSON
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
  private readonly signer: HmacSigner;

  constructor(signingKey: string) {
    this.signer = new HmacSigner(signingKey, 'cursor');
  }

  encode(scope: CursorScope, position: unknown): string {
    const body: CursorBody = {
      v: 1,
      e: scope.endpoint,
      o: scope.orgId,
      f: filtersDigest(scope.filters),
      p: position,
    };
    return this.signer.seal(JSON.stringify(body));
  }

  decode<T>(cursor: string, scope: CursorScope): T {
    const invalid = () =>
      new InvalidRequestError(
        'invalid_cursor',
        'The cursor is not valid for this request. Use the nextCursor of the previous page unchanged.',
      );
    const opened = this.signer.open(cursor);
    if (opened === null) throw invalid();
    let body: CursorBody;
    try {
      body = JSON.parse(opened) as CursorBody;
    } catch {
      throw invalid();
    }
    if (
      body?.v !== 1 ||
      body.e !== scope.endpoint ||
      body.o !== scope.orgId ||
      body.f !== filtersDigest(scope.filters)
    ) {
      throw invalid();
    }
    return body.p as T;
  }
}
