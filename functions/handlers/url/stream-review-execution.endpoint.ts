import type { RouteDefinition } from '../../shared/route-definition.ts';

/**
 * The review stream is not an API Gateway route (API Gateway cannot stream): a Lambda function URL
 * in RESPONSE_STREAM mode serves it. The local server mounts it on the same origin. Its request and
 * responses (SSE or NDJSON) are documented in scripts/openapi-document.ts.
 */
export const STREAM_ROUTE = {
  id: 'streamReviewExecution',
  method: 'GET',
  path: '/api/open/v1/projects/{projectId}/reviews/{reviewId}/executions/{executionId}/stream',
  handler: 'functions/handlers/url/stream-review-execution.ts',
  auth: 'apiKey',
  scope: 'reviews:read',
  access: { table: 'read' },
  summary: 'Stream (and replay) the public events of a review execution as SSE or NDJSON',
} as const satisfies RouteDefinition;
