import { createHmac } from 'node:crypto';
import { isIP } from 'node:net';
import { InvalidRequestError } from '../errors.ts';
import { isPublicAddress } from './addresses.ts';
import type { WebhookMessage } from './model.ts';

/**
 * Signing follows the Standard Webhooks scheme: `webhook-signature: v1,<base64 HMAC-SHA256 of
 * "<id>.<timestamp>.<body>">` with `webhook-id` and `webhook-timestamp` headers; receivers reject
 * timestamps older than a few minutes to stop replays.
 */
export function signWebhook(secret: string, id: string, timestamp: number, body: string): string {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64url');
  return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}

export function webhookRequest(message: WebhookMessage, secret: string, now = new Date()) {
  const id = message.payload.eventId;
  const timestamp = Math.floor(now.getTime() / 1000);
  const body = JSON.stringify({
    id,
    type: message.event,
    createdAt: message.occurredAt,
    data: message.payload,
  });
  return {
    body,
    headers: {
      'content-type': 'application/json',
      'user-agent': 'project-source-api-webhooks/1',
      'webhook-id': id,
      'webhook-timestamp': String(timestamp),
      'webhook-signature': signWebhook(secret, id, timestamp, body),
    },
  };
}

/** Backoff before redelivery, by attempt: 30 s, 2 min, 10 min, 30 min, 1 h, then 2 h (scaled by `base`). */
export function retryDelaySeconds(attempt: number, base = 30): number {
  const steps = [1, 4, 20, 60, 120, 240];
  return Math.min(43_200, base * (steps[Math.min(attempt - 1, steps.length - 1)] ?? 240));
}

/** Refuses targets inside private networks (metadata endpoints, localhost) unless allowed (local dev). */
export function assertDeliverableUrl(url: string, allowPrivate: boolean): void {
  const parsed = new URL(url);
  if (allowPrivate) return;
  if (parsed.protocol !== 'https:')
    throw new InvalidRequestError('invalid_request', 'Invalid body: url: must use https');
  const host = parsed.hostname.replace(/^\[|\]$/g, '');
  const privateHost =
    host === 'localhost' ||
    host.endsWith('.localhost') ||
    host.endsWith('.internal') ||
    (isIP(host) !== 0 && !isPublicAddress(host));
  if (privateHost) {
    throw new InvalidRequestError('invalid_request', 'Invalid body: url: must be a public address');
  }
}
