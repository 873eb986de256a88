import { ReadSourceQuerySchema, SourceTextSchema } from '../../core/search/model.ts';
import { projectIdPath } from '../../shared/http/params.ts';
import { endpoint, http, SEARCH_MEMORY_MB } from '../../shared/route-definition.ts';

export const readSourceEndpoint = endpoint({
  id: 'readSource',
  method: 'GET',
  path: '/api/open/v1/projects/{projectId}/sources',
  handler: http('read-source'),
  auth: 'apiKey',
  scope: 'jobs:read',
  access: { table: 'read', indexBucket: 'read', signingKey: 'read' },
  usesIndex: true,
  memoryMb: SEARCH_MEMORY_MB,
  summary: 'Read the full text of a source (by its sourceCatalogUri), with its pages, box and artifacts',
  request: { path: projectIdPath, query: ReadSourceQuerySchema },
  responses: {
    200: {
      description:
        'The text of the source (a window of it: `offset`, `limit`, `nextOffset`), with its page range, box, document and artifacts.',
      schema: SourceTextSchema,
    },
    400: { description: '`invalid_request`: missing `uri`, `offset` or `limit` out of range.' },
    404: {
      description: '`project_not_found`; `source_not_found` for a URI of another project or of nothing.',
    },
  },
});
