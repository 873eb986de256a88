import { putWebhook } from '../../core/webhooks/webhooks.ts';
import { config } from '../../shared/config.ts';
import { apiHandler } from '../../shared/http/api-handler.ts';
import { apiWiring } from '../../shared/wiring/api.ts';
import { putWebhookEndpoint } from './put-webhook.endpoint.ts';

export const handler = apiHandler(putWebhookEndpoint, async ({ body, principal }) => {
  const api = apiWiring();
  const result = await putWebhook(
    {
      webhooks: api.webhooks,
      serviceKey: await api.signingKey(),
      allowPrivate: config.WEBHOOK_ALLOW_PRIVATE_TARGETS,
    },
    { orgId: principal.orgId, url: body.url, events: body.events },
  );
  return { status: 200, body: result };
});
