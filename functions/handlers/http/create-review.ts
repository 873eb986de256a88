import { createReview } from '../../core/reviews/reviews.ts';
import { projectStore } from '../../shared/container.ts';
import { apiHandler } from '../../shared/http/api-handler.ts';
import { reviewStore } from '../../shared/review-container.ts';

export const handler = apiHandler('createReview', async ({ path, body, headers, principal }) => ({
  status: 201,
  body: await createReview(
    { projects: projectStore(), reviews: reviewStore() },
    {
      orgId: principal.orgId,
      projectId: path.projectId,
      idempotencyKey: headers['idempotency-key'],
      name: body.name,
    },
  ),
}));
