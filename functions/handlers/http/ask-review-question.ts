import { askQuestion } from '../../core/reviews/reviews.ts';
import { config } from '../../shared/config.ts';
import { apiHandler } from '../../shared/http/api-handler.ts';
import { apiWiring } from '../../shared/wiring/api.ts';
import { askReviewQuestionEndpoint } from './ask-review-question.endpoint.ts';

export const handler = apiHandler(askReviewQuestionEndpoint, async ({ path, body, headers, principal }) => {
  const api = apiWiring();
  return {
    status: 202,
    body: await askQuestion(
      {
        projects: api.projects,
        reviews: api.reviews,
        starter: api.executions,
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
  };
});
