import { listReviews } from '../../core/reviews/reviews.ts';
import { apiHandler } from '../../shared/http/api-handler.ts';
import { apiWiring } from '../../shared/wiring/api.ts';
import { listReviewsEndpoint } from './list-reviews.endpoint.ts';

export const handler = apiHandler(listReviewsEndpoint, async ({ path, query, principal }) => ({
  status: 200,
  body: await listReviews(
    { projects: apiWiring().projects, reviews: apiWiring().reviews, cursors: await apiWiring().cursors() },
    { orgId: principal.orgId, projectId: path.projectId, limit: query.limit, cursor: query.cursor },
  ),
}));
