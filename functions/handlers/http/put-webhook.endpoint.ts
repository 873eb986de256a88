import { z } from 'zod';
import { WebhookSchema } from '../../core/webhooks/model.ts';
import { PutWebhookBodySchema } from '../../shared/http/request-bodies.ts';
import { endpoint, http } from '../../shared/route-definition.ts';

export const putWebhookEndpoint = endpoint({
  id: 'putWebhook',
  method: 'PUT',
  path: '/api/open-api/webhook',
  handler: http('put-webhook'),
  auth: 'session',
  access: { table: 'readwrite', signingKey: 'read' },
  summary: 'Set the webhook notified when jobs finish (returns its signing secret once)',
  request: { body: PutWebhookBodySchema },
  responses: {
    200: {
      description:
        'The webhook and its signing secret (shown only here; setting the webhook again rotates it).',
      schema: z.object({ webhook: WebhookSchema, secret: z.string() }),
    },
    400: { description: '`invalid_request`: not an https URL, or a private address.' },
  },
});
