import { revokeApiKey } from '../../core/auth/api-keys.ts';
import { apiKeyStore } from '../../shared/container.ts';
import { apiHandler } from '../../shared/http/api-handler.ts';

export const handler = apiHandler('revokeApiKey', async ({ path, principal }) => {
  const key = await revokeApiKey({ keys: apiKeyStore() }, { principal, keyId: path.keyId });
  return { status: 200, body: { key } };
});
