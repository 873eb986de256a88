import type { Logger } from '@aws-lambda-powertools/logger';
import middy, { type MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import type { z } from 'zod';
import { authenticateApiKey, authenticateSession } from '../../core/auth/api-keys.ts';
import type { Principal } from '../../core/auth/model.ts';
import {
  DomainError,
  InvalidRequestError,
  RateLimitedError,
  ScopeRequiredError,
  ServiceUnavailableError,
} from '../../core/errors.ts';
import { config } from '../config.ts';
import { invocationLogger, logger } from '../logger.ts';
import type { Endpoint, EndpointRequest, RouteDefinition } from '../route-definition.ts';
import { rateLimiter, sessionStore, verifiedKeys } from '../wiring/adapters.ts';
import { originVerifyValue } from '../wiring/secrets.ts';
import {
  MethodNotAllowedError,
  OriginRequiredError,
  PayloadTooLargeError,
  statusOf,
  UnsupportedMediaTypeError,
} from './errors.ts';
import { fromOrigin, viewerAddress } from './origin-verify.ts';
import { parseQueryString, parseWith } from './validation.ts';

export type ApiEvent = APIGatewayProxyEventV2;
export type ApiResult = APIGatewayProxyStructuredResultV2;

export interface ApiResponse {
  status: number;
  /** JSON body, or raw bytes (sent base64-encoded through API Gateway) for downloads. */
  body: unknown;
  headers?: Record<string, string>;
}

type Parsed<S, K extends keyof EndpointRequest> = S extends { [P in K]: infer T }
  ? T extends z.ZodType
    ? z.output<T>
    : undefined
  : undefined;

export interface ApiRequest<S> {
  body: Parsed<S, 'body'>;
  query: Parsed<S, 'query'>;
  path: Parsed<S, 'path'>;
  principal: Principal;
  requestId: string;
  headers: Record<string, string | undefined>;
}

interface RequestState {
  requestId: string;
  /** This request's own logger (never the shared one: concurrent requests must not mix keys). */
  log: Logger;
  principal?: Principal;
  parsed?: { body: unknown; query: unknown; path: unknown };
  /** The client's address CloudFront forwards, once the request proved it came through CloudFront. */
  viewerIp?: string | null;
}

export type ApiContext = Context & { state: RequestState };
/** Middlewares shared by the API handlers and the streaming handler (whose result has a stream body). */
type Middleware<R = ApiResult> = MiddlewareObj<ApiEvent, R, Error, ApiContext>;
type Request<R = ApiResult> = middy.Request<ApiEvent, R, Error, ApiContext>;

const JSON_HEADERS = { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' };

export function jsonResponse(
  status: number,
  body: unknown,
  requestId: string,
  headers?: Record<string, string>,
): ApiResult {
  return {
    statusCode: status,
    headers: { ...JSON_HEADERS, 'x-request-id': requestId, ...headers },
    body: JSON.stringify(body),
  };
}

/** The error middy raises when a handler runs out of the function's time. */
function isFunctionTimeout(error: unknown): boolean {
  return (
    error instanceof Error &&
    error.name === 'TimeoutError' &&
    (error.cause as { package?: string } | undefined)?.package === '@middy/core'
  );
}

/** Every error leaves in the spec's envelope; unknown ones become a logged, generic 500. */
export function errorResponse(error: unknown, requestId: string, log: Logger = logger): ApiResult {
  // Out of time is not an internal error: it says so, and the client may retry or narrow the request.
  if (isFunctionTimeout(error))
    return errorResponse(
      new ServiceUnavailableError(
        'The request did not finish in time. Retry it; if that keeps happening, narrow it (filters, a smaller limit).',
        error,
      ),
      requestId,
      log,
    );
  if (error instanceof DomainError) {
    const status = statusOf(error);
    if (status >= 500) {
      const cause =
        error.cause instanceof Error ? { name: error.cause.name, message: error.cause.message } : {};
      log.warn('Request failed', { error: error.message, code: error.code, cause });
    }
    const headers: Record<string, string> = {};
    if (error.retryAfterSeconds !== undefined) headers['retry-after'] = String(error.retryAfterSeconds);
    if (error instanceof MethodNotAllowedError) headers.allow = error.allowed.join(', ');
    return jsonResponse(
      status,
      { error: { code: error.code, message: error.message, ...error.details, requestId } },
      requestId,
      headers,
    );
  }
  log.error('Unhandled error', error as Error);
  return jsonResponse(
    500,
    {
      error: {
        code: 'internal_error',
        message: 'An unexpected error occurred. Quote the requestId when reporting it.',
        requestId,
      },
    },
    requestId,
  );
}

function requestIdOf(event: ApiEvent, context: Context): string {
  return event.requestContext?.requestId || context.awsRequestId;
}

export const envelope = <R = ApiResult>(): Middleware<R> => ({
  before: (request) => {
    const requestId = requestIdOf(request.event, request.context);
    const log = invocationLogger(request.context, {
      requestId,
      path: request.event.rawPath,
      method: request.event.requestContext?.http?.method,
    });
    request.context.state = { requestId, log };
  },
  onError: (request) => {
    const requestId = requestIdOf(request.event, request.context);
    // A string body: the streaming handler sends it as the whole stream.
    request.response = errorResponse(request.error, requestId, request.context.state?.log) as R;
  },
});

/**
 * One access line per request in the function's log, with the client's address: API Gateway's own
 * access log (`$context.identity.sourceIp`) can only name CloudFront's edge, and HTTP API access logs
 * cannot read request headers. `viewerIp` is CloudFront-Viewer-Address on a request that carried the
 * origin secret, else left out (a request refused before, or a client's own header); `edgeIp` is what API
 * Gateway saw. The requestId joins this line to API Gateway's.
 */
const accessLine = (): Middleware => {
  const write = (request: Request) => {
    const { state } = request.context;
    if (!state?.log) return;
    state.log.info('Request', {
      status: request.response?.statusCode ?? null,
      viewerIp: state.viewerIp ?? undefined,
      edgeIp: request.event.requestContext?.http?.sourceIp ?? null,
    });
  };
  return { after: write, onError: write };
};

/**
 * HEAD on a GET route (RFC 9110 section 9.3.2): the GET's status and headers, without its body. The
 * API routes HEAD to the GET route's function (lib/stateless-stack.ts, the local server alike).
 */
const headAsGet = (): Middleware => ({
  after: (request) => {
    if (request.event.requestContext?.http?.method !== 'HEAD' || !request.response) return;
    const { body, isBase64Encoded, ...rest } = request.response;
    const length = body === undefined ? 0 : Buffer.byteLength(body, isBase64Encoded ? 'base64' : 'utf8');
    request.response = { ...rest, headers: { ...rest.headers, 'content-length': String(length) } };
  },
  onError: (request) => {
    if (request.event.requestContext?.http?.method !== 'HEAD' || !request.response) return;
    const { body: _body, isBase64Encoded: _encoded, ...rest } = request.response;
    request.response = rest;
  },
});

export const authentication = <R = ApiResult>(route: RouteDefinition): Middleware<R> => ({
  before: async (request: Request<R>) => {
    const { event } = request;
    // A function bound to the origin secret answers only what CloudFront sent (after its web ACL).
    const origin = await originVerifyValue();
    if (origin !== null && !fromOrigin(event.headers, origin)) throw new OriginRequiredError();
    // Behind the distribution, API Gateway sees CloudFront's edge: the viewer's address is CloudFront's header.
    const viewerIp = origin !== null ? viewerAddress(event.headers) : null;
    request.context.state.viewerIp = viewerIp;
    const sourceIp = viewerIp ?? event.requestContext?.http?.sourceIp ?? 'unknown';
    // Behind CloudFront's origin access control (the review stream), the distribution moved the
    // client's Authorization header here (lib/edge.ts); elsewhere it is the Authorization header.
    const authorization = event.headers?.['x-service-authorization'] ?? event.headers?.authorization;
    let principal: Principal;
    if (route.auth === 'session') {
      principal = await authenticateSession(
        { sessions: sessionStore() },
        { cookies: event.cookies ?? [], authorization },
      );
    } else {
      principal = await authenticateApiKey({ keys: verifiedKeys() }, { authorization, sourceIp });
      if (route.scope && !principal.scopes.includes(route.scope)) throw new ScopeRequiredError(route.scope);
    }
    const subject = principal.keyId ?? `user:${principal.userId}`;
    const retryAfter = await rateLimiter().hit(
      subject,
      principal.rateLimitPerMinute ?? config.RATE_LIMIT_PER_MINUTE,
    );
    if (retryAfter !== null) throw new RateLimitedError(retryAfter);
    request.context.state.principal = principal;
    request.context.state.log.appendKeys({ orgId: principal.orgId, keyId: principal.keyId ?? undefined });
  },
});

const validation = (schemas: EndpointRequest): Middleware => ({
  before: (request: Request) => {
    const { event } = request;
    let body: unknown;
    if (schemas.body) {
      const raw = event.body ?? '';
      const text = event.isBase64Encoded ? Buffer.from(raw, 'base64').toString('utf8') : raw;
      if (Buffer.byteLength(text, 'utf8') > config.MAX_JSON_BODY_BYTES) {
        throw new PayloadTooLargeError(`The request body exceeds ${config.MAX_JSON_BODY_BYTES} bytes.`);
      }
      const contentType = event.headers?.['content-type'];
      if (text.length > 0 && contentType && !/^application\/(.+\+)?json\b/i.test(contentType)) {
        throw new UnsupportedMediaTypeError('Send the body as JSON with "Content-Type: application/json".');
      }
      body = parseWith(schemas.body, parseJson(text, schemas.bodyErrorCode), 'body', schemas.bodyErrorCode);
    }
    const query = schemas.query
      ? parseWith(schemas.query, parseQueryString(event.rawQueryString ?? ''), 'query')
      : undefined;
    const path = schemas.path ? parseWith(schemas.path, event.pathParameters ?? {}, 'path') : undefined;
    request.context.state.parsed = { body, query, path };
  },
});

/** A body that is no JSON at all is invalid too: under the route's own code when it names one (`invalid_review`). */
function parseJson(text: string, code = 'invalid_json'): unknown {
  if (text.trim() === '') return {};
  try {
    return JSON.parse(text);
  } catch {
    throw new InvalidRequestError(code, 'The request body is not valid JSON.');
  }
}

/**
 * Builds the Lambda handler of one endpoint: logging context, error envelope, authentication and
 * scope (from the route table), rate limiting, validation, then the endpoint's own function.
 */
export function apiHandler<E extends Endpoint>(
  route: E,
  handle: (request: ApiRequest<E['request']>) => Promise<ApiResponse>,
) {
  const schemas: EndpointRequest = route.request;
  return middy<ApiEvent, ApiResult, Error, ApiContext>()
    .use(accessLine())
    .use(headAsGet())
    .use(envelope())
    .use(authentication(route))
    .use(validation(schemas))
    .handler(async (_event, context) => {
      const { state } = context;
      if (!state.principal || !state.parsed) throw new Error('Request reached the handler unauthenticated');
      const response = await handle({
        body: state.parsed.body as Parsed<E['request'], 'body'>,
        query: state.parsed.query as Parsed<E['request'], 'query'>,
        path: state.parsed.path as Parsed<E['request'], 'path'>,
        principal: state.principal,
        requestId: state.requestId,
        headers: _event.headers ?? {},
      });
      if (response.body instanceof Uint8Array) {
        return {
          statusCode: response.status,
          headers: {
            'content-type': 'application/octet-stream',
            'x-request-id': state.requestId,
            ...response.headers,
          },
          body: Buffer.from(response.body).toString('base64'),
          isBase64Encoded: true,
        };
      }
      if (response.body === null) {
        return {
          statusCode: response.status,
          headers: { 'x-request-id': state.requestId, ...response.headers },
        };
      }
      return jsonResponse(response.status, response.body, state.requestId, response.headers);
    });
}
