import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { ORIGIN_VERIFY_HEADER } from '../functions/shared/http/origin-verify.ts';
import { matchPath } from '../functions/shared/route-matching.ts';
import { FALLBACK_HANDLER, STREAM_ROUTE } from '../functions/shared/routes.ts';
import { asFunction, functionNameOf, lambdaContext, loadHandler } from './lambda.ts';
import { createResponseStream, installStreamingShim } from './streaming-shim.ts';
import { serveViewer } from './viewer-static.ts';

installStreamingShim();
const STREAM_PATH = new RegExp(`^${STREAM_ROUTE.path.replace(/\{[^}]+\}/g, '[^/]+')}$`);

/**
 * What reaches a function on AWS: API Gateway takes up to 10 MB, but a synchronous Lambda invocation
 * takes 6 MB, so a bigger request never reaches the handler there either.
 */
const API_GATEWAY_MAX_BODY = 6 * 1024 * 1024;

const TEXT_TYPES = /^(application\/(json|.*\+json|x-www-form-urlencoded|xml)|text\/)/i;

function toEvent(
  request: IncomingMessage,
  body: Buffer,
  routeKey: string,
  pathParameters: Record<string, string>,
): APIGatewayProxyEventV2 {
  const url = new URL(request.url ?? '/', 'http://localhost');
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined || name === 'cookie') continue;
    headers[name] = Array.isArray(value) ? value.join(',') : value;
  }
  const cookies = request.headers.cookie
    ?.split(';')
    .map((cookie) => cookie.trim())
    .filter(Boolean);
  const queryStringParameters: Record<string, string> = {};
  for (const [key, value] of url.searchParams) {
    queryStringParameters[key] =
      key in queryStringParameters ? `${queryStringParameters[key]},${value}` : value;
  }
  const isText = TEXT_TYPES.test(headers['content-type'] ?? 'application/json');
  const now = new Date();
  return {
    version: '2.0',
    routeKey,
    rawPath: url.pathname,
    rawQueryString: url.search.slice(1),
    ...(cookies?.length ? { cookies } : {}),
    headers,
    ...(url.search ? { queryStringParameters } : {}),
    ...(Object.keys(pathParameters).length ? { pathParameters } : {}),
    requestContext: {
      accountId: '000000000000',
      apiId: 'local',
      domainName: headers.host ?? 'localhost',
      domainPrefix: 'local',
      http: {
        method: request.method ?? 'GET',
        path: url.pathname,
        protocol: `HTTP/${request.httpVersion}`,
        sourceIp: request.socket.remoteAddress ?? '127.0.0.1',
        userAgent: headers['user-agent'] ?? '',
      },
      requestId: randomUUID(),
      routeKey,
      stage: '$default',
      time: now.toUTCString(),
      timeEpoch: now.getTime(),
    },
    ...(body.length ? { body: isText ? body.toString('utf8') : body.toString('base64') } : {}),
    isBase64Encoded: body.length > 0 && !isText,
  };
}

function writeResult(response: ServerResponse, result: APIGatewayProxyStructuredResultV2): void {
  const headers: Record<string, string | string[]> = { ...(result.headers as Record<string, string>) };
  if (result.cookies?.length) headers['set-cookie'] = result.cookies;
  response.writeHead(result.statusCode ?? 200, headers);
  const body = result.body ?? '';
  response.end(result.isBase64Encoded ? Buffer.from(body, 'base64') : body);
}

/** An error in the service's envelope, from the local gateway itself (no function ran). */
function gatewayError(response: ServerResponse, status: number, code: string, message: string): void {
  if (response.headersSent || response.destroyed) {
    response.destroy();
    return;
  }
  const requestId = randomUUID();
  response.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'x-request-id': requestId,
  });
  response.end(JSON.stringify({ error: { code, message, requestId } }));
}

/** The decoded path of a request target, or null when it is not a valid URL or percent-encoding. */
function requestPath(target: string | undefined): string | null {
  try {
    const pathname = new URL(target ?? '/', 'http://localhost').pathname;
    decodeURIComponent(pathname);
    return pathname;
  } catch {
    return null;
  }
}

async function readBody(request: IncomingMessage): Promise<Buffer | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > API_GATEWAY_MAX_BODY) return null;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/**
 * The local API Gateway: routes with THE route table, turns requests into HTTP API (v2) events and
 * invokes the real handlers; whatever no route matches goes to the same `$default` handler as on AWS.
 */
/**
 * `originVerify`: the value CloudFront adds as X-Origin-Verify to what it sends to the HTTP API; this
 * server stands in for the distribution, so the routes' requests carry it (a client's own is replaced).
 */
export async function startApiServer(
  port: number,
  originVerify?: string,
): Promise<{ server: Server; url: string }> {
  const handle = async (request: IncomingMessage, response: ServerResponse, upgrade: boolean) => {
    const path = requestPath(request.url);
    if (path === null) {
      request.resume();
      return gatewayError(response, 400, 'invalid_request', 'The request target is not a valid URL path.');
    }
    if (!upgrade && serveViewer(path, request, response)) return;
    const body = upgrade ? Buffer.alloc(0) : await readBody(request);
    if (body === null) {
      return gatewayError(response, 413, 'payload_too_large', 'The request body exceeds 6 MB.');
    }
    if (STREAM_PATH.test(path)) {
      // On AWS a function URL; here the same origin. Function URLs pass every method and path through.
      const event = toEvent(request, body, '$default', {});
      const stream = createResponseStream(response);
      try {
        await asFunction(STREAM_ROUTE.handler, async () => {
          const handler = await loadHandler(STREAM_ROUTE.handler);
          const streaming = handler as unknown as (e: unknown, s: unknown, c: unknown) => Promise<void>;
          await streaming(event, stream, lambdaContext(functionNameOf(STREAM_ROUTE.handler), 60_000));
        });
      } catch (error) {
        // A client that went away (before the first byte or mid-stream) is not a crash, and there is
        // nobody left to answer: whatever the error the write to its closed stream raised.
        if (response.destroyed || request.destroyed || response.socket?.destroyed !== false) {
          response.destroy();
          return;
        }
        if ((error as { code?: string }).code !== 'ERR_STREAM_PREMATURE_CLOSE') {
          console.error('stream handler crashed:', error);
        }
        gatewayError(
          response,
          502,
          'review_stream_unavailable',
          'The stream failed; reconnect with `after`.',
        );
      }
      return;
    }
    // HEAD reaches the GET route's function, as on AWS (the stack routes both methods to it).
    const method = request.method === 'HEAD' ? 'GET' : request.method;
    const match = matchPath(path).find((candidate) => candidate.route.method === method);
    const file = match?.route.handler ?? FALLBACK_HANDLER;
    const routeKey = match ? `${match.route.method} ${match.route.path}` : '$default';
    const event = toEvent(request, body, routeKey, match?.pathParameters ?? {});
    if (originVerify) {
      event.headers[ORIGIN_VERIFY_HEADER] = originVerify;
      // CloudFront sets the viewer's address itself, whatever the client sent.
      const { remoteAddress, remotePort } = request.socket;
      event.headers['cloudfront-viewer-address'] = `${remoteAddress ?? '127.0.0.1'}:${remotePort ?? 0}`;
    }
    try {
      writeResult(
        response,
        await asFunction(file, async () => {
          const handler = await loadHandler(file);
          return handler(event, lambdaContext(functionNameOf(file)));
        }),
      );
    } catch (error) {
      // What API Gateway answers when the function itself crashes.
      console.error(`${file} crashed:`, error);
      gatewayError(response, 500, 'internal_error', 'Internal Server Error');
    }
  };
  // One request's failure ends that request (with the envelope while the socket can still take it),
  // never the process: a client that resets mid-body, a handler that throws, a socket already gone.
  const serve = (request: IncomingMessage, response: ServerResponse, upgrade: boolean) => {
    request.on('error', () => response.destroy());
    response.on('error', () => response.destroy());
    handle(request, response, upgrade).catch((error: Error & { code?: string }) => {
      if (error.code !== 'ECONNRESET' && error.message !== 'aborted') console.error('request failed:', error);
      gatewayError(response, 500, 'internal_error', 'Internal Server Error');
    });
  };
  const server = createServer((request, response) => serve(request, response, false));
  // A WebSocket upgrade never reaches 'request': answer it through the same handlers, then hang up
  // (saying so, so that the client does not reuse the connection).
  server.on('upgrade', (request: IncomingMessage, socket: Duplex) => {
    socket.on('error', () => socket.destroy());
    const response = new ServerResponse(request);
    response.shouldKeepAlive = false;
    response.assignSocket(socket as Socket);
    response.on('finish', () => socket.destroy());
    serve(request, response, true);
  });
  // Requests Node cannot parse (oversized header lines, a malformed request line) get the envelope too.
  server.on('clientError', (error: Error & { code?: string }, socket: Duplex) => {
    if (!socket.writable || error.code === 'ECONNRESET') {
      socket.destroy();
      return;
    }
    const tooLarge = error.code === 'HPE_HEADER_OVERFLOW';
    const status = tooLarge ? 431 : 400;
    const requestId = randomUUID();
    const body = JSON.stringify({
      error: {
        code: tooLarge ? 'request_header_too_large' : 'invalid_request',
        message: tooLarge
          ? 'The request line or headers exceed 16 KiB.'
          : 'The request could not be parsed as HTTP/1.1.',
        requestId,
      },
    });
    socket.end(
      `HTTP/1.1 ${status} ${tooLarge ? 'Request Header Fields Too Large' : 'Bad Request'}\r\n` +
        'content-type: application/json; charset=utf-8\r\n' +
        `x-request-id: ${requestId}\r\n` +
        `content-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
    );
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const address = server.address();
  const actualPort = typeof address === 'object' && address ? address.port : port;
  return { server, url: `http://127.0.0.1:${actualPort}` };
}
