import { z } from 'zod';
import { ReviewSchema } from '../../core/reviews/model.ts';
import { reviewPathParams } from '../../shared/http/params.ts';
import { endpoint, http } from '../../shared/route-definition.ts';

export const getReviewEndpoint = endpoint({
  id: 'getReview',
  method: 'GET',
  path: '/api/open/v1/projects/{projectId}/reviews/{reviewId}',
  handler: http('get-review'),
  auth: 'apiKey',
  scope: 'reviews:read',
  access: { table: 'read' },
  summary: 'Get a review',
  request: { path: reviewPathParams },
  responses: {
    200: { description: 'The review.', schema: z.object({ review: ReviewSchema }) },
    404: { description: '`project_not_found`, `open_api_review_not_found`.' },
  },
});
