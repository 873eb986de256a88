import { createHmac, timingSafeEqual } from 'node:crypto';
import type { TokenSigner } from '../jobs/ports.ts';

/** Small signed tokens (upload tokens): `base64url(json).base64url(hmac)`, verified in constant time. */
export class HmacTokenSigner implements TokenSigner {
  private readonly key: string;
  private readonly purpose: string;

  constructor(key: string, purpose: string) {
    this.key = key;
    this.purpose = purpose;
  }

  private mac(payload: string): Buffer {
    return createHmac('sha256', `${this.purpose}:${this.key}`).update(payload).digest();
  }

  sign(payload: Record<string, string>): string {
    const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
    return `${body}.${this.mac(body).toString('base64url')}`;
  }

  verify(token: string): Record<string, string> | null {
    const [body, signature, extra] = token.split('.');
    if (!body || !signature || extra !== undefined) return null;
    const expected = this.mac(body);
    const presented = Buffer.from(signature, 'base64url');
    if (presented.length !== expected.length || !timingSafeEqual(presented, expected)) return null;
    try {
      const parsed = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
      return typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, string>) : null;
    } catch {
      return null;
    }
  }
}
