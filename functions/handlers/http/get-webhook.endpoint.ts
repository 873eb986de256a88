import { z } from 'zod';
import { WebhookSchema } from '../../core/webhooks/model.ts';
import { endpoint, http } from '../../shared/route-definition.ts';

export const getWebhookEndpoint = endpoint({
  id: 'getWebhook',
  method: 'GET',
  path: '/api/open-api/webhook',
  handler: http('get-webhook'),
  auth: 'session',
  access: { table: 'read' },
  summary: 'The organization webhook (without its secret)',
  request: {},
  responses: {
    200: { description: 'The webhook.', schema: z.object({ webhook: WebhookSchema }) },
    404: { description: '`webhook_not_found`.' },
  },
});
