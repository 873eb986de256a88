import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The one format of every signed value the service hands out (pagination cursors, upload tokens,
 * artifact paths): `base64url(body).base64url(hmac)`. The MAC key is bound to a purpose, so a value
 * signed for one use never verifies for another, and to an optional context that is not carried in
 * the value (the project an artifact path was issued for), so a value replayed in another context
 * fails. Verification is constant-time and refuses anything longer than `maxLength`.
 */
export class HmacSigner {
  private readonly key: string;

  constructor(key: string, purpose: string) {
    this.key = `${purpose}:${key}`;
  }

  private mac(body: string, context: string): Buffer {
    return createHmac('sha256', this.key).update(`${context}\n${body}`).digest();
  }

  seal(body: string, context = ''): string {
    const encoded = Buffer.from(body, 'utf8').toString('base64url');
    return `${encoded}.${this.mac(encoded, context).toString('base64url')}`;
  }

  /** The body, or null when the value was not sealed by this signer, for this purpose and context. */
  open(value: string, context = '', maxLength = 4096): string | null {
    if (value.length > maxLength) return null;
    const [encoded, signature, extra] = value.split('.');
    if (!encoded || !signature || extra !== undefined) return null;
    const expected = this.mac(encoded, context);
    const presented = Buffer.from(signature, 'base64url');
    if (presented.length !== expected.length || !timingSafeEqual(presented, expected)) return null;
    return Buffer.from(encoded, 'base64url').toString('utf8');
  }
}

/** Signed string maps (upload tokens). */
export interface TokenSigner {
  sign(payload: Record<string, string>): string;
  verify(token: string): Record<string, string> | null;
}

export class HmacTokenSigner implements TokenSigner {
  private readonly signer: HmacSigner;

  constructor(key: string, purpose: string) {
    this.signer = new HmacSigner(key, purpose);
  }

  sign(payload: Record<string, string>): string {
    return this.signer.seal(JSON.stringify(payload));
  }

  verify(token: string): Record<string, string> | null {
    const body = this.signer.open(token);
    if (body === null) return null;
    try {
      const parsed: unknown = JSON.parse(body);
      return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
        ? (parsed as Record<string, string>)
        : null;
    } catch {
      return null;
    }
  }
}
