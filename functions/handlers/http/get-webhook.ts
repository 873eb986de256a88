import { getWebhook } from '../../core/webhooks/webhooks.ts';
import { apiHandler } from '../../shared/http/api-handler.ts';
import { apiWiring } from '../../shared/wiring/api.ts';

export const handler = apiHandler('getWebhook', async ({ principal }) => {
  const webhook = await getWebhook({ webhooks: apiWiring().webhooks }, { orgId: principal.orgId });
  return { status: 200, body: { webhook } };
});
