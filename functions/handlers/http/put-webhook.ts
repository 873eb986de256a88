import { putWebhook } from '../../core/webhooks/webhooks.ts';
import { config } from '../../shared/config.ts';
import { signingKey, webhookStore } from '../../shared/container.ts';
import { apiHandler } from '../../shared/http/api-handler.ts';

export const handler = apiHandler('putWebhook', async ({ body, principal }) => {
  const result = await putWebhook(
    {
      webhooks: webhookStore(),
      serviceKey: await signingKey(),
      allowPrivate: config.WEBHOOK_ALLOW_PRIVATE_TARGETS,
    },
    { orgId: principal.orgId, url: body.url, events: body.events },
  );
  return { status: 200, body: result };
});
