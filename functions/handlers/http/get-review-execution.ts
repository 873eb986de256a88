import { getExecution } from '../../core/reviews/reviews.ts';
import { projectStore } from '../../shared/container.ts';
import { apiHandler } from '../../shared/http/api-handler.ts';
import { reviewStore } from '../../shared/review-container.ts';

export const handler = apiHandler('getReviewExecution', async ({ path, principal }) => ({
  status: 200,
  body: {
    execution: await getExecution(
      { projects: projectStore(), reviews: reviewStore() },
      {
        orgId: principal.orgId,
        projectId: path.projectId,
        reviewId: path.reviewId,
        executionId: path.executionId,
      },
    ),
  },
}));
