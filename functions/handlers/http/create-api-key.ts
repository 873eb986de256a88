import { createApiKey } from '../../core/auth/api-keys.ts';
import { apiHandler } from '../../shared/http/api-handler.ts';
import { apiWiring } from '../../shared/wiring/api.ts';

export const handler = apiHandler('createApiKey', async ({ body, principal }) => {
  const result = await createApiKey(
    { keys: apiWiring().apiKeys, plans: apiWiring().organizations },
    { principal, ...body },
  );
  return { status: 201, body: result };
});
