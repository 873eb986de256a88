import { z } from 'zod';
import { ExecutionSchema } from '../../core/reviews/model.ts';
import { reviewPathParams } from '../../shared/http/params.ts';
import { endpoint, http } from '../../shared/route-definition.ts';

const executionPath = reviewPathParams.extend({ executionId: z.string() });

export const getReviewExecutionEndpoint = endpoint({
  id: 'getReviewExecution',
  method: 'GET',
  path: '/api/open/v1/projects/{projectId}/reviews/{reviewId}/executions/{executionId}',
  handler: http('get-review-execution'),
  auth: 'apiKey',
  scope: 'reviews:read',
  access: { table: 'read' },
  summary: 'Get an execution: its status, and once terminal its answer, citations or error',
  request: { path: executionPath },
  responses: {
    200: {
      description:
        'The execution; once terminal (`succeeded`, `partial`, `failed`) it carries the full answer and its citations, or the error.',
      schema: z.object({ execution: ExecutionSchema }),
    },
    404: { description: '`project_not_found`, `review_execution_not_found`.' },
  },
});
