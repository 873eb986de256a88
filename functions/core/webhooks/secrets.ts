import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/** Webhook signing secrets must be recoverable to sign, so they are stored encrypted, never in plain text. */
function key(serviceKey: string): Buffer {
  return Buffer.from(hkdfSync('sha256', serviceKey, 'project-source-api', 'webhook-secrets', 32));
}

export function encryptSecret(serviceKey: string, secret: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key(serviceKey), iv);
  const body = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return [iv, cipher.getAuthTag(), body].map((part) => part.toString('base64url')).join('.');
}

export function decryptSecret(serviceKey: string, ciphertext: string): string {
  const [iv, tag, body] = ciphertext.split('.').map((part) => Buffer.from(part, 'base64url'));
  if (!iv || !tag || !body) throw new Error('Malformed secret ciphertext');
  const decipher = createDecipheriv('aes-256-gcm', key(serviceKey), iv);
  decipher.setAuthTag(tag);
  return Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8');
}

export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64url')}`;
}
