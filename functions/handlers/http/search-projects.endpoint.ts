import { z } from 'zod';
import { ProjectSearchResultItemSchema, ProjectSearchWarningSchema } from '../../core/search/model.ts';
import { PageEnvelopeSchema } from '../../shared/http/params.ts';
import { ProjectSearchBodySchema } from '../../shared/http/request-bodies.ts';
import { endpoint, http, SEARCH_MEMORY_MB } from '../../shared/route-definition.ts';

export const searchProjectsEndpoint = endpoint({
  id: 'searchProjects',
  method: 'POST',
  path: '/api/open/v1/projects/search',
  handler: http('search-projects'),
  auth: 'apiKey',
  scope: 'jobs:read',
  access: { table: 'read', indexBucket: 'read', embeddingModel: 'invoke', signingKey: 'read' },
  usesIndex: true,
  memoryMb: SEARCH_MEMORY_MB,
  summary: "Search the organization's projects by name and by their sources",
  request: { body: ProjectSearchBodySchema },
  responses: {
    200: {
      description:
        'Projects matched by name (first) or by their sources, with reasons, up to 3 source matches each, and warnings.',
      schema: PageEnvelopeSchema.extend({
        query: z.string(),
        projects: z.array(ProjectSearchResultItemSchema),
        warnings: z.array(ProjectSearchWarningSchema),
      }),
    },
    400: {
      description:
        '`invalid_request`: empty query, `limit` outside 1 to 100, unknown field; `invalid_cursor`.',
    },
  },
});
