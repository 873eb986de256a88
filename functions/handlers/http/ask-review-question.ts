import { askQuestion } from '../../core/reviews/reviews.ts';
import { config } from '../../shared/config.ts';
import { projectStore } from '../../shared/container.ts';
import { apiHandler } from '../../shared/http/api-handler.ts';
import { executionStarter, reviewStore } from '../../shared/review-container.ts';

export const handler = apiHandler('askReviewQuestion', async ({ path, body, headers, principal }) => ({
  status: 202,
  body: await askQuestion(
    {
      projects: projectStore(),
      reviews: reviewStore(),
      starter: executionStarter(),
      answerer: config.ANSWERER,
    },
    {
      orgId: principal.orgId,
      projectId: path.projectId,
      reviewId: path.reviewId,
      idempotencyKey: headers['idempotency-key'],
      ask: body,
    },
  ),
}));
