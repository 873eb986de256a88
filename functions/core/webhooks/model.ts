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

export interface WebhookMessage {
  orgId: string;
  event: 'job.completed' | 'job.failed';
  payload: { eventId: string; [field: string]: unknown };
  occurredAt: string;
}
