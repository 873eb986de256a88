import { z } from 'zod';
import { ReviewSchema } from '../../core/reviews/model.ts';
import { idempotencyErrors, idempotencyHeader } from '../../shared/http/params.ts';
import { CreateReviewBodySchema } from '../../shared/http/request-bodies.ts';
import { endpoint, http } from '../../shared/route-definition.ts';

export const createReviewEndpoint = endpoint({
  id: 'createReview',
  method: 'POST',
  path: '/api/open/v1/projects/{projectId}/reviews',
  handler: http('create-review'),
  auth: 'apiKey',
  scope: 'reviews:write',
  access: { table: 'readwrite' },
  summary: 'Create a review (a named conversation over the project), idempotently',
  request: {
    path: z.object({ projectId: z.string() }),
    headers: idempotencyHeader,
    body: CreateReviewBodySchema,
    bodyErrorCode: 'invalid_review',
  },
  responses: {
    201: {
      description: 'The review; `idempotent` is true when this key already created it (an identical retry).',
      schema: z.object({ review: ReviewSchema, idempotent: z.boolean() }),
    },
    400: {
      description: `${idempotencyErrors[400].description} \`invalid_review\`: a name of 1 to 120 characters, one line without control characters (NUL, line breaks), is required; unknown field; a body that is no JSON.`,
    },
    404: { description: '`project_not_found`.' },
    409: idempotencyErrors[409],
  },
});
