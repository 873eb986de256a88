import { z } from 'zod';
import { ApiKeySchema } from '../../core/auth/model.ts';
import { endpoint, http } from '../../shared/route-definition.ts';

export const revokeApiKeyEndpoint = endpoint({
  id: 'revokeApiKey',
  method: 'POST',
  path: '/api/open-api/keys/{keyId}/revoke',
  handler: http('revoke-api-key'),
  auth: 'session',
  access: { table: 'readwrite' },
  summary: 'Revoke an API key, immediately and permanently',
  request: { path: z.object({ keyId: z.string() }) },
  responses: {
    200: { description: 'The revoked key.', schema: z.object({ key: ApiKeySchema }) },
    404: { description: '`api_key_not_found`.' },
  },
});
