import { z } from 'zod';
import { ApiKeySchema } from '../../core/auth/model.ts';
import { CreateApiKeyBodySchema } from '../../shared/http/request-bodies.ts';
import { endpoint, http } from '../../shared/route-definition.ts';

export const createApiKeyEndpoint = endpoint({
  id: 'createApiKey',
  method: 'POST',
  path: '/api/open-api/keys',
  handler: http('create-api-key'),
  auth: 'session',
  access: { table: 'readwrite' },
  summary: 'Create an API key (the secret is returned once)',
  request: { body: CreateApiKeyBodySchema },
  responses: {
    201: {
      description: 'The key and its secret. The secret is shown only here.',
      schema: z.object({ key: ApiKeySchema, secret: z.string().describe('Bearer token; store it now.') }),
    },
  },
});
