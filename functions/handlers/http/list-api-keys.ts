import { listApiKeys } from '../../core/auth/api-keys.ts';
import { apiHandler } from '../../shared/http/api-handler.ts';
import { apiWiring } from '../../shared/wiring/api.ts';
import { listApiKeysEndpoint } from './list-api-keys.endpoint.ts';

export const handler = apiHandler(listApiKeysEndpoint, async ({ query, principal }) => {
  const result = await listApiKeys(
    { keys: apiWiring().apiKeys, cursors: await apiWiring().cursors() },
    { orgId: principal.orgId, limit: query.limit, cursor: query.cursor },
  );
  return { status: 200, body: result };
});
