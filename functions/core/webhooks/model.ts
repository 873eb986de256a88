import { z } from 'zod';

export const WebhookSchema = z
  .object({
    url: z.string(),
    events: z.array(z.enum(['job.completed', 'job.failed'])),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: 'Webhook' });
export type Webhook = z.infer<typeof WebhookSchema>;

export const PutWebhookBodySchema = z
  .object({
    url: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).max(2048),
    events: z
      .array(z.enum(['job.completed', 'job.failed']))
      .min(1)
      .default(['job.completed', 'job.failed']),
  })
  .strict();

export interface WebhookRecord extends Webhook {
  orgId: string;
  /** The signing secret, encrypted (AES-256-GCM) under a key derived from the service signing key. */
  secretCiphertext: string;
}

export interface WebhookMessage {
  orgId: string;
  event: 'job.completed' | 'job.failed';
  payload: { eventId: string; [field: string]: unknown };
  occurredAt: string;
}
