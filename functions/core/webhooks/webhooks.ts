import { NotFoundError } from '../errors.ts';
import { assertDeliverableUrl, retryDelaySeconds, webhookRequest } from './delivery.ts';
import type { Webhook, WebhookMessage, WebhookRecord } from './model.ts';
import { decryptSecret, encryptSecret, newWebhookSecret } from './secrets.ts';

export interface WebhookStore {
  get(orgId: string): Promise<WebhookRecord | null>;
  put(record: WebhookRecord): Promise<void>;
  delete(orgId: string): Promise<boolean>;
}

export interface WebhookSender {
  /** POSTs and resolves with the status; refuses targets that resolve to private addresses unless allowed. */
  post(url: string, headers: Record<string, string>, body: string, allowPrivate: boolean): Promise<number>;
}

const toPublic = ({ url, events, createdAt, updatedAt }: WebhookRecord): Webhook => ({
  url,
  events,
  createdAt,
  updatedAt,
});

/**
 * Configure the organization's webhook (one per organization). A new signing secret is generated
 * and returned once each time the webhook is set; only its ciphertext is stored.
 */
export async function putWebhook(
  deps: { webhooks: WebhookStore; serviceKey: string; allowPrivate: boolean },
  input: { orgId: string; url: string; events: Webhook['events'] },
): Promise<{ webhook: Webhook; secret: string }> {
  assertDeliverableUrl(input.url, deps.allowPrivate);
  const existing = await deps.webhooks.get(input.orgId);
  const now = new Date().toISOString();
  const secret = newWebhookSecret();
  const record: WebhookRecord = {
    orgId: input.orgId,
    url: input.url,
    events: input.events,
    createdAt: existing?.createdAt ?? now,
    updatedAt: now,
    secretCiphertext: encryptSecret(deps.serviceKey, secret),
  };
  await deps.webhooks.put(record);
  return { webhook: toPublic(record), secret };
}

export class WebhookNotFoundError extends NotFoundError {
  constructor() {
    super('webhook_not_found', 'The organization has no webhook configured.');
  }
}

export async function getWebhook(
  deps: { webhooks: WebhookStore },
  input: { orgId: string },
): Promise<Webhook> {
  const record = await deps.webhooks.get(input.orgId);
  if (!record) throw new WebhookNotFoundError();
  return toPublic(record);
}

export async function deleteWebhook(
  deps: { webhooks: WebhookStore },
  input: { orgId: string },
): Promise<void> {
  if (!(await deps.webhooks.delete(input.orgId))) throw new WebhookNotFoundError();
}

export type DeliveryOutcome =
  | { kind: 'delivered'; status: number }
  | { kind: 'skipped'; reason: string }
  | { kind: 'retry'; reason: string; delaySeconds: number };

/** Deliver one queued event; a non-2xx answer or a network error asks for a later retry. */
export async function deliverWebhook(
  deps: {
    webhooks: WebhookStore;
    sender: WebhookSender;
    serviceKey: string;
    allowPrivate: boolean;
    retryBaseSeconds: number;
  },
  input: { message: WebhookMessage; attempt: number },
): Promise<DeliveryOutcome> {
  const record = await deps.webhooks.get(input.message.orgId);
  if (!record) return { kind: 'skipped', reason: 'no webhook configured' };
  if (!record.events.includes(input.message.event))
    return { kind: 'skipped', reason: `not subscribed to ${input.message.event}` };
  const request = webhookRequest(input.message, decryptSecret(deps.serviceKey, record.secretCiphertext));
  try {
    const status = await deps.sender.post(record.url, request.headers, request.body, deps.allowPrivate);
    if (status >= 200 && status < 300) return { kind: 'delivered', status };
    return {
      kind: 'retry',
      reason: `endpoint answered ${status}`,
      delaySeconds: retryDelaySeconds(input.attempt, deps.retryBaseSeconds),
    };
  } catch (error) {
    return {
      kind: 'retry',
      reason: (error as Error).message,
      delaySeconds: retryDelaySeconds(input.attempt, deps.retryBaseSeconds),
    };
  }
}
