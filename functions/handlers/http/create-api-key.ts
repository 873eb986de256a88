import { createApiKey } from '../../core/auth/api-keys.ts';
import { apiHandler } from '../../shared/http/api-handler.ts';
import { apiWiring } from '../../shared/wiring/api.ts';
import { createApiKeyEndpoint } from './create-api-key.endpoint.ts';

export const handler = apiHandler(createApiKeyEndpoint, async ({ body, principal }) => {
  const result = await createApiKey(
    { keys: apiWiring().apiKeys, plans: apiWiring().organizations },
    { principal, ...body },
  );
  return { status: 201, body: result };
});
