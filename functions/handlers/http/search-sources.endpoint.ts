import { SourceSearchResponseSchema } from '../../core/search/model.ts';
import { projectIdPath } from '../../shared/http/params.ts';
import { SourceSearchBodySchema } from '../../shared/http/request-bodies.ts';
import { endpoint, http, SEARCH_MEMORY_MB } from '../../shared/route-definition.ts';

export const searchSourcesEndpoint = endpoint({
  id: 'searchSources',
  method: 'POST',
  path: '/api/open/v1/projects/{projectId}/source-search',
  handler: http('search-sources'),
  auth: 'apiKey',
  scope: 'jobs:read',
  access: { table: 'read', indexBucket: 'read', embeddingModel: 'invoke', rerankModel: 'rerank' },
  usesIndex: true,
  memoryMb: SEARCH_MEMORY_MB,
  summary: 'Search the sources of a project (exact, semantic or hybrid), with filters',
  request: { path: projectIdPath, body: SourceSearchBodySchema },
  responses: {
    200: { description: 'Hits, one per source, in descending score.', schema: SourceSearchResponseSchema },
    400: {
      description: '`invalid_request`: empty or missing query, maxHits outside 1 to 50, unknown field.',
    },
    404: { description: '`project_not_found`; `open_api_review_not_found` for an unknown reviewId.' },
    409: {
      description:
        '`source_index_not_ready`: nothing of the project is indexed yet while it has searchable sources or a job still reads its files; retry after the `Retry-After` seconds (5). Once something is indexed, the answer is `200` with `status: partial` until every source is.',
    },
  },
});
