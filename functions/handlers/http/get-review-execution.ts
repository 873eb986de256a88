import { getExecution } from '../../core/reviews/reviews.ts';
import { apiHandler } from '../../shared/http/api-handler.ts';
import { apiWiring } from '../../shared/wiring/api.ts';
import { getReviewExecutionEndpoint } from './get-review-execution.endpoint.ts';

export const handler = apiHandler(getReviewExecutionEndpoint, async ({ path, principal }) => ({
  status: 200,
  body: {
    execution: await getExecution(
      { projects: apiWiring().projects, reviews: apiWiring().reviews },
      {
        orgId: principal.orgId,
        projectId: path.projectId,
        reviewId: path.reviewId,
        executionId: path.executionId,
      },
    ),
  },
}));
