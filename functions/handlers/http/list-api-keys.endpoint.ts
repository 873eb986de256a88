import { z } from 'zod';
import { ApiKeySchema } from '../../core/auth/model.ts';
import { cursorParam, limitParam, PageEnvelopeSchema } from '../../shared/http/params.ts';
import { endpoint, http } from '../../shared/route-definition.ts';

export const listApiKeysEndpoint = endpoint({
  id: 'listApiKeys',
  method: 'GET',
  path: '/api/open-api/keys',
  handler: http('list-api-keys'),
  auth: 'session',
  access: { table: 'read', signingKey: 'read' },
  summary: 'List the API keys of the organization',
  request: {
    query: z.object({ limit: limitParam(100, 50), cursor: cursorParam }).strict(),
  },
  responses: {
    200: {
      description: 'Keys of the organization, newest first.',
      schema: PageEnvelopeSchema.extend({ keys: z.array(ApiKeySchema) }),
    },
  },
});
