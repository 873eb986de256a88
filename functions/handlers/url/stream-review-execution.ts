import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { DynamoReviewEventStore } from '../../adapters/dynamodb/review-event-store.ts';
import { authenticateApiKey } from '../../core/auth/api-keys.ts';
import { DomainError, RateLimitedError, ScopeRequiredError } from '../../core/errors.ts';
import {
  frame,
  negotiateFormat,
  parseStreamQuery,
  ReviewExecutionNotFoundError,
  StreamError,
  TERMINAL_EVENT_TYPES,
} from '../../core/reviews/stream.ts';
import { dynamo } from '../../shared/clients.ts';
import { config, resource } from '../../shared/config.ts';
import { apiKeyStore, rateLimiter } from '../../shared/container.ts';
import { errorResponse } from '../../shared/http/api-handler.ts';
import { logger } from '../../shared/logger.ts';

/**
 * GET /api/open/v1/projects/{projectId}/reviews/{reviewId}/executions/{executionId}/stream, served by a
 * Lambda function URL in RESPONSE_STREAM mode (API Gateway cannot stream). It replays the stored
 * events after `after`, then follows new ones until a terminal event or the function's time runs
 * out; the client reconnects with the last sequence it received.
 */
const PATH = /^\/api\/open\/v1\/projects\/([^/]+)\/reviews\/([^/]+)\/executions\/([^/]+)\/stream$/;
const POLL_MS = 500;
const HEARTBEAT_MS = 15_000;
const RESERVED_MS = 5_000;

const events = new DynamoReviewEventStore(dynamo, resource('table'));

function sendError(stream: awslambda.ResponseStream, error: unknown, requestId: string): void {
  const response = errorResponse(error, requestId);
  const out = awslambda.HttpResponseStream.from(stream, {
    statusCode: response.statusCode ?? 500,
    headers: response.headers as Record<string, string>,
  });
  out.write(response.body ?? '');
  out.end();
}

export const handler = awslambda.streamifyResponse(
  async (event: APIGatewayProxyEventV2, responseStream: awslambda.ResponseStream, context: Context) => {
    const requestId = event.requestContext?.requestId || context.awsRequestId;
    logger.addContext(context);
    try {
      const method = event.requestContext?.http?.method ?? 'GET';
      const match = PATH.exec(event.rawPath ?? '');
      if (!match) throw new ReviewExecutionNotFoundError();
      const headers = event.headers ?? {};
      if (headers.upgrade || (headers.connection ?? '').toLowerCase().includes('upgrade')) {
        throw new StreamError(
          'WebSocket and other upgrades are not supported; use SSE or NDJSON.',
          'review_stream_transport_unsupported',
        );
      }
      if (method !== 'GET') {
        throw new StreamError('Only GET is supported on the stream.', 'review_stream_transport_unsupported');
      }
      const principal = await authenticateApiKey(
        { keys: apiKeyStore() },
        { authorization: headers.authorization, sourceIp: event.requestContext?.http?.sourceIp ?? 'unknown' },
      );
      if (!principal.scopes.includes('reviews:read')) throw new ScopeRequiredError('reviews:read');
      const retryAfter = await rateLimiter().hit(
        principal.keyId ?? principal.userId,
        principal.rateLimitPerMinute ?? config.RATE_LIMIT_PER_MINUTE,
      );
      if (retryAfter !== null) throw new RateLimitedError(retryAfter);
      const { after } = parseStreamQuery(event.rawQueryString ?? '');
      const format = negotiateFormat(headers.accept);
      const [, projectId, reviewId, executionId] = match as unknown as [string, string, string, string];
      const execution = await events.getExecution(principal.orgId, executionId);
      if (!execution || execution.projectId !== projectId || execution.reviewId !== reviewId) {
        throw new ReviewExecutionNotFoundError();
      }

      const out = awslambda.HttpResponseStream.from(responseStream, {
        statusCode: 200,
        headers: {
          'content-type':
            format === 'sse' ? 'text/event-stream; charset=utf-8' : 'application/x-ndjson; charset=utf-8',
          'cache-control': 'no-store',
          'x-request-id': requestId,
        },
      });
      let cursor = after;
      let lastWrite = Date.now();
      for (;;) {
        const batch = await events.eventsAfter(executionId, cursor, 100);
        for (const stored of batch) {
          out.write(frame(stored, format));
          cursor = stored.sequence;
          lastWrite = Date.now();
          if (TERMINAL_EVENT_TYPES.has(stored.type)) {
            out.end();
            return;
          }
        }
        if (batch.length === 100) continue;
        if (context.getRemainingTimeInMillis() < RESERVED_MS) break;
        if (Date.now() - lastWrite > HEARTBEAT_MS) {
          // A comment line (SSE) or an empty line (NDJSON) keeps proxies from closing an idle stream.
          out.write(format === 'sse' ? ': keep-alive\n\n' : '\n');
          lastWrite = Date.now();
        }
        await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      }
      out.end();
    } catch (error) {
      if (!(error instanceof DomainError)) logger.error('Stream failed', error as Error);
      sendError(responseStream, error, requestId);
    }
  },
);
