import { deleteWebhook } from '../../core/webhooks/webhooks.ts';
import { webhookStore } from '../../shared/container.ts';
import { apiHandler } from '../../shared/http/api-handler.ts';

export const handler = apiHandler('deleteWebhook', async ({ principal }) => {
  await deleteWebhook({ webhooks: webhookStore() }, { orgId: principal.orgId });
  return { status: 200, body: { deleted: true } };
});
