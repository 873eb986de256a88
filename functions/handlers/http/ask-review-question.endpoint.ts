import { z } from 'zod';
import { ExecutionSchema } from '../../core/reviews/model.ts';
import { idempotencyErrors, idempotencyHeader, reviewPathParams } from '../../shared/http/params.ts';
import { AskBodySchema } from '../../shared/http/request-bodies.ts';
import { endpoint, http } from '../../shared/route-definition.ts';

export const askReviewQuestionEndpoint = endpoint({
  id: 'askReviewQuestion',
  method: 'POST',
  path: '/api/open/v1/projects/{projectId}/reviews/{reviewId}/executions',
  handler: http('ask-review-question'),
  auth: 'apiKey',
  scope: 'reviews:write',
  access: { table: 'readwrite', reviewExecutionStateMachine: 'start' },
  summary: 'Ask a question in a review: starts a durable execution whose answer streams as events',
  request: {
    path: reviewPathParams,
    headers: idempotencyHeader,
    body: AskBodySchema,
    bodyErrorCode: 'invalid_review',
  },
  responses: {
    202: {
      description:
        'The execution (`queued`): follow `streamUrl`, or poll `url`. `idempotent` is true when this key already started it (no second execution is started).',
      schema: z.object({ execution: ExecutionSchema, idempotent: z.boolean() }),
    },
    400: {
      description: `${idempotencyErrors[400].description} \`invalid_review\`: a question of 1 to 2,000 characters is required; unknown \`entityTypes\`; more than 50 \`fileIds\`; a body that is no JSON.`,
    },
    404: { description: '`project_not_found`, `open_api_review_not_found`.' },
    409: {
      description: `${idempotencyErrors[409].description} \`source_index_not_ready\` (Retry-After) while the project's sources are being indexed.`,
    },
  },
});
