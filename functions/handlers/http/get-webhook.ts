import { getWebhook } from '../../core/webhooks/webhooks.ts';
import { webhookStore } from '../../shared/container.ts';
import { apiHandler } from '../../shared/http/api-handler.ts';

export const handler = apiHandler('getWebhook', async ({ principal }) => {
  const webhook = await getWebhook({ webhooks: webhookStore() }, { orgId: principal.orgId });
  return { status: 200, body: { webhook } };
});
