import { z } from 'zod';
import { ReviewSchema } from '../../core/reviews/model.ts';
import { cursorParam, limitParam } from '../../shared/http/params.ts';
import { endpoint, http } from '../../shared/route-definition.ts';

export const listReviewsEndpoint = endpoint({
  id: 'listReviews',
  method: 'GET',
  path: '/api/open/v1/projects/{projectId}/reviews',
  handler: http('list-reviews'),
  auth: 'apiKey',
  scope: 'reviews:read',
  access: { table: 'read', signingKey: 'read' },
  summary: 'List the reviews of a project, newest first',
  request: {
    path: z.object({ projectId: z.string() }),
    query: z.object({ limit: limitParam(100, 20), cursor: cursorParam }).strict(),
  },
  responses: {
    200: {
      description: 'Reviews of the project, newest first.',
      schema: z.object({ reviews: z.array(ReviewSchema), nextCursor: z.string().nullable() }),
    },
    404: { description: '`project_not_found`.' },
  },
});
