import { createReview } from '../../core/reviews/reviews.ts';
import { apiHandler } from '../../shared/http/api-handler.ts';
import { apiWiring } from '../../shared/wiring/api.ts';
import { createReviewEndpoint } from './create-review.endpoint.ts';

export const handler = apiHandler(createReviewEndpoint, async ({ path, body, headers, principal }) => ({
  status: 201,
  body: await createReview(
    { projects: apiWiring().projects, reviews: apiWiring().reviews },
    {
      orgId: principal.orgId,
      projectId: path.projectId,
      idempotencyKey: headers['idempotency-key'],
      name: body.name,
    },
  ),
}));
