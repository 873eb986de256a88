import { z } from 'zod';
import { endpoint, http } from '../../shared/route-definition.ts';

export const deleteWebhookEndpoint = endpoint({
  id: 'deleteWebhook',
  method: 'DELETE',
  path: '/api/open-api/webhook',
  handler: http('delete-webhook'),
  auth: 'session',
  access: { table: 'readwrite' },
  summary: 'Remove the organization webhook',
  request: {},
  responses: {
    200: { description: 'Removed.', schema: z.object({ deleted: z.literal(true) }) },
    404: { description: '`webhook_not_found`.' },
  },
});
