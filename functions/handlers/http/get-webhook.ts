import { getWebhook } from '../../core/webhooks/webhooks.ts';
import { apiHandler } from '../../shared/http/api-handler.ts';
import { apiWiring } from '../../shared/wiring/api.ts';
import { getWebhookEndpoint } from './get-webhook.endpoint.ts';

export const handler = apiHandler(getWebhookEndpoint, async ({ principal }) => {
  const webhook = await getWebhook({ webhooks: apiWiring().webhooks }, { orgId: principal.orgId });
  return { status: 200, body: { webhook } };
});
