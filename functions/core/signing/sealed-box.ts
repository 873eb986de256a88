import { createCipheriv, createDecipheriv, createHash, createHmac } from 'node:crypto';

const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * Opaque values that must not reveal what they carry (artifact paths hide the storage key layout):
 * AES-256-GCM under a key bound to a purpose, with an optional context (the project or job a path
 * was issued for) as authenticated data that is not carried. The IV is derived from the context and
 * the plaintext (deterministic, so the same artifact always has the same path; different plaintexts
 * never share an IV). Opening is strict: only the exact canonical base64url of a value this box
 * sealed, for this purpose and context, opens; trailing junk or any other change does not.
 */
export class SealedBox {
  private readonly key: Buffer;
  private readonly ivKey: Buffer;

  constructor(secret: string, purpose: string) {
    this.key = createHash('sha256').update(`${purpose}:encrypt:${secret}`).digest();
    this.ivKey = createHash('sha256').update(`${purpose}:iv:${secret}`).digest();
  }

  seal(plaintext: string, context = ''): string {
    const iv = createHmac('sha256', this.ivKey)
      .update(`${context}\n${plaintext}`)
      .digest()
      .subarray(0, IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(Buffer.from(context, 'utf8'));
    const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return Buffer.concat([iv, body, cipher.getAuthTag()]).toString('base64url');
  }

  /** The plaintext, or null when the value was not sealed by this box for this context. */
  open(value: string, context = '', maxLength = 2048): string | null {
    if (value.length > maxLength || !/^[A-Za-z0-9_-]+$/.test(value)) return null;
    const bytes = Buffer.from(value, 'base64url');
    if (bytes.toString('base64url') !== value || bytes.length <= IV_BYTES + TAG_BYTES) return null;
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.key, bytes.subarray(0, IV_BYTES));
      decipher.setAAD(Buffer.from(context, 'utf8'));
      decipher.setAuthTag(bytes.subarray(bytes.length - TAG_BYTES));
      const body = bytes.subarray(IV_BYTES, bytes.length - TAG_BYTES);
      return Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8');
    } catch {
      return null;
    }
  }
}
