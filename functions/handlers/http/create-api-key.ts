import { createApiKey } from '../../core/auth/api-keys.ts';
import { apiKeyStore, organizationStore } from '../../shared/container.ts';
import { apiHandler } from '../../shared/http/api-handler.ts';

export const handler = apiHandler('createApiKey', async ({ body, principal }) => {
  const result = await createApiKey(
    { keys: apiKeyStore(), plans: organizationStore() },
    { principal, ...body },
  );
  return { status: 201, body: result };
});
