import type { RouteAccess } from './routes.ts';

/** Queue consumers (Lambda event source mappings on AWS, a poller locally), from one list. */
export const CONSUMERS = [
  {
    id: 'deliverWebhooks',
    handler: 'functions/handlers/sqs/deliver-webhooks.ts',
    queue: 'webhookQueue',
    access: { table: 'read', webhookQueue: 'consume', signingKey: true } satisfies RouteAccess,
    batchSize: 10,
    timeoutSeconds: 120,
  },
] as const;
