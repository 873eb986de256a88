import { revokeApiKey } from '../../core/auth/api-keys.ts';
import { apiHandler } from '../../shared/http/api-handler.ts';
import { apiWiring } from '../../shared/wiring/api.ts';
import { revokeApiKeyEndpoint } from './revoke-api-key.endpoint.ts';

export const handler = apiHandler(revokeApiKeyEndpoint, async ({ path, principal }) => {
  const key = await revokeApiKey({ keys: apiWiring().apiKeys }, { principal, keyId: path.keyId });
  return { status: 200, body: { key } };
});
