import { z } from 'zod';

export const WebhookSchema = z.object({
  url: z.string(),
  events: z.array(z.enum(['job.completed', 'job.failed'])),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Webhook = z.infer<typeof WebhookSchema>;

export interface WebhookRecord extends Webhook {
  orgId: string;
  /** The signing secret, encrypted (AES-256-GCM) under a key derived from the service signing key. */
  secretCiphertext: string;
}

/** One event on the webhook queue, as the pipeline enqueues it and the consumer reads it back. */
export const WebhookMessageSchema = z.object({
  orgId: z.string().min(1),
  event: z.enum(['job.completed', 'job.failed']),
  payload: z.looseObject({ eventId: z.string() }),
  occurredAt: z.string(),
});
export type WebhookMessage = z.infer<typeof WebhookMessageSchema>;
