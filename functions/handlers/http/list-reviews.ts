import { listReviews } from '../../core/reviews/reviews.ts';
import { cursorCodec, projectStore } from '../../shared/container.ts';
import { apiHandler } from '../../shared/http/api-handler.ts';
import { reviewStore } from '../../shared/review-container.ts';

export const handler = apiHandler('listReviews', async ({ path, query, principal }) => ({
  status: 200,
  body: await listReviews(
    { projects: projectStore(), reviews: reviewStore(), cursors: await cursorCodec() },
    { orgId: principal.orgId, projectId: path.projectId, limit: query.limit, cursor: query.cursor },
  ),
}));
