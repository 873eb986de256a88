import type { Readable } from 'node:stream';
import middy, { type MiddlewareObj } from '@middy/core';
import type { Principal } from '../../core/auth/model.ts';
import { matchRoute } from '../route-matching.ts';
import type { RouteDefinition } from '../routes.ts';
import { type ApiContext, type ApiEvent, authentication, envelope } from './api-handler.ts';
import { StreamError } from './errors.ts';

/** What a streaming endpoint answers: status and headers, then a body written as it is produced. */
export interface StreamResult {
  statusCode: number;
  headers: Record<string, string>;
  body: Readable | string;
}

export interface StreamRequest {
  principal: Principal;
  requestId: string;
  /** The route's path parameters, matched from the raw path (function URLs have no route). */
  path: Record<string, string>;
  rawQueryString: string;
  headers: Record<string, string | undefined>;
  remainingMs: () => number;
}

/** Upgrades (WebSocket) and methods other than the route's are refused before any other work. */
const transport = (route: RouteDefinition): MiddlewareObj<ApiEvent, StreamResult, Error, ApiContext> => ({
  before: (request) => {
    const headers = request.event.headers ?? {};
    if (headers.upgrade || (headers.connection ?? '').toLowerCase().includes('upgrade')) {
      throw new StreamError(
        'review_stream_transport_unsupported',
        'WebSocket and other upgrades are not supported; use SSE or NDJSON.',
      );
    }
    if ((request.event.requestContext?.http?.method ?? 'GET') !== route.method) {
      throw new StreamError(
        'review_stream_transport_unsupported',
        `Only ${route.method} is supported on the stream.`,
      );
    }
  },
});

/**
 * Builds a response-streaming handler (a Lambda function URL in RESPONSE_STREAM mode) on the same
 * middleware as the API handlers: logging context, error envelope, authentication, scope and rate
 * limit from the route's entry, then the endpoint's own function, whose body is streamed.
 */
export function streamHandler(
  route: RouteDefinition,
  handle: (request: StreamRequest) => Promise<StreamResult>,
) {
  return middy<ApiEvent, StreamResult, Error, ApiContext>({ streamifyResponse: true })
    .use(envelope<StreamResult>())
    .use(transport(route))
    .use(authentication<StreamResult>(route))
    .handler(async (event, context) => {
      const { state } = context;
      if (!state.principal) throw new Error('Request reached the handler unauthenticated');
      const path = matchRoute(route, event.rawPath ?? '');
      if (!path) throw new StreamError('invalid_request', 'No such stream path.');
      const result = await handle({
        principal: state.principal,
        requestId: state.requestId,
        path,
        rawQueryString: event.rawQueryString ?? '',
        headers: event.headers ?? {},
        remainingMs: () => context.getRemainingTimeInMillis(),
      });
      return { ...result, headers: { 'x-request-id': state.requestId, ...result.headers } };
    });
}
