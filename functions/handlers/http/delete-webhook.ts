import { deleteWebhook } from '../../core/webhooks/webhooks.ts';
import { apiHandler } from '../../shared/http/api-handler.ts';
import { apiWiring } from '../../shared/wiring/api.ts';
import { deleteWebhookEndpoint } from './delete-webhook.endpoint.ts';

export const handler = apiHandler(deleteWebhookEndpoint, async ({ principal }) => {
  await deleteWebhook({ webhooks: apiWiring().webhooks }, { orgId: principal.orgId });
  return { status: 200, body: { deleted: true } };
});
