import { getReview } from '../../core/reviews/reviews.ts';
import { apiHandler } from '../../shared/http/api-handler.ts';
import { apiWiring } from '../../shared/wiring/api.ts';
import { getReviewEndpoint } from './get-review.endpoint.ts';

export const handler = apiHandler(getReviewEndpoint, async ({ path, principal }) => ({
  status: 200,
  body: {
    review: await getReview(
      { projects: apiWiring().projects, reviews: apiWiring().reviews },
      { orgId: principal.orgId, projectId: path.projectId, reviewId: path.reviewId },
    ),
  },
}));
