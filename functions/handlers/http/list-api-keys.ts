import { listApiKeys } from '../../core/auth/api-keys.ts';
import { apiKeyStore, cursorCodec } from '../../shared/container.ts';
import { apiHandler } from '../../shared/http/api-handler.ts';

export const handler = apiHandler('listApiKeys', async ({ query, principal }) => {
  const result = await listApiKeys(
    { keys: apiKeyStore(), cursors: await cursorCodec() },
    { orgId: principal.orgId, limit: query.limit, cursor: query.cursor },
  );
  return { status: 200, body: result };
});
