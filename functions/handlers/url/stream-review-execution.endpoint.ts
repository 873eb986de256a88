import { z } from 'zod';
import { StreamEventSchema } from '../../core/reviews/stream.ts';
import type { EndpointRequest, RouteDefinition } from '../../shared/route-definition.ts';

/**
 * The review stream is not an API Gateway route (API Gateway cannot stream): a Lambda function URL
 * in RESPONSE_STREAM mode serves it. The local server mounts it on the same origin. Its responses are
 * not JSON: each names its media types (documented as they are; the handler negotiates `Accept` and
 * parses `after` itself, `functions/shared/http/review-stream-protocol.ts`).
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
  description:
    'Served by a Lambda function URL (response streaming), not API Gateway. Replays stored events with a sequence greater than `after`, then follows new ones until `response.completed` or `response.error`. Reconnect with the last sequence received. Requires scope `reviews:read`.',
  request: {
    path: z.object({ projectId: z.string(), reviewId: z.string(), executionId: z.string() }),
    query: z.object({ after: z.number().int().min(-1).default(-1).optional() }),
    headers: z.object({ accept: z.enum(['text/event-stream', 'application/x-ndjson']) }),
  },
  responses: {
    200: {
      description:
        'SSE (`id` = sequence, `event` = type, `data` = event JSON) or NDJSON (one event per line).',
      content: { 'text/event-stream': z.string(), 'application/x-ndjson': StreamEventSchema },
    },
    400: {
      description:
        '`invalid_review_stream_after`, `invalid_review_stream_query`, `review_stream_transport_unsupported`.',
    },
    401: { description: '`unauthorized`.' },
    403: { description: '`scope_required`.' },
    404: { description: '`review_execution_not_found`.' },
    406: { description: '`review_stream_media_type_not_acceptable`.' },
  },
} as const satisfies RouteDefinition & {
  description: string;
  request: EndpointRequest;
  responses: Record<number, { description: string; content?: Record<string, z.ZodType> }>;
};
