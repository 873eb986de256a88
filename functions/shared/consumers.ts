import type { Access, ResourceNameOfKind } from './resources.ts';

/** Queue consumers (Lambda event source mappings on AWS, a poller locally), from one list. */
export const CONSUMERS = [
  {
    id: 'deliverWebhooks',
    handler: 'functions/handlers/sqs/deliver-webhooks.ts',
    queue: 'webhookQueue' satisfies ResourceNameOfKind<'queue'>,
    access: { table: 'read', webhookQueue: 'consume', signingKey: 'read' } satisfies Access,
    batchSize: 10,
    timeoutSeconds: 120,
  },
] as const;
