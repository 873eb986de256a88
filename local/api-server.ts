import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { FALLBACK_HANDLER, matchPath, STREAM_ROUTE } from '../functions/shared/routes.ts';
import { functionNameOf, lambdaContext, loadHandler } from './lambda.ts';
import { createResponseStream, installStreamingShim } from './streaming-shim.ts';

installStreamingShim();
const STREAM_PATH = new RegExp(`^${STREAM_ROUTE.path.replace(/\{[^}]+\}/g, '[^/]+')}$`);

/** API Gateway's own payload limit; bigger requests never reach a function. */
const API_GATEWAY_MAX_BODY = 10 * 1024 * 1024;

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
export async function startApiServer(port: number): Promise<{ server: Server; url: string }> {
  const handle = async (request: IncomingMessage, response: ServerResponse, upgrade: boolean) => {
    const body = upgrade ? Buffer.alloc(0) : await readBody(request);
    if (body === null) {
      response.writeHead(413, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify({
          error: { code: 'payload_too_large', message: 'The request body exceeds 10 MB.' },
        }),
      );
      return;
    }
    const path = new URL(request.url ?? '/', 'http://localhost').pathname;
    if (STREAM_PATH.test(path)) {
      // On AWS a function URL; here the same origin. Function URLs pass every method and path through.
      const event = toEvent(request, body, '$default', {});
      const handler = await loadHandler(STREAM_ROUTE.handler);
      const stream = createResponseStream(response);
      try {
        const streaming = handler as unknown as (e: unknown, s: unknown, c: unknown) => Promise<void>;
        await streaming(event, stream, lambdaContext(functionNameOf(STREAM_ROUTE.handler), 60_000));
      } catch (error) {
        console.error('stream handler crashed:', error);
        if (!response.headersSent) response.writeHead(502);
        response.end();
      }
      return;
    }
    const match = matchPath(path).find((candidate) => candidate.route.method === request.method);
    const file = match?.route.handler ?? FALLBACK_HANDLER;
    const routeKey = match ? `${match.route.method} ${match.route.path}` : '$default';
    const event = toEvent(request, body, routeKey, match?.pathParameters ?? {});
    try {
      const handler = await loadHandler(file);
      writeResult(response, await handler(event, lambdaContext(functionNameOf(file))));
    } catch (error) {
      // What API Gateway answers when the function itself crashes.
      console.error(`${file} crashed:`, error);
      response.writeHead(500, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ error: { code: 'internal_error', message: 'Internal Server Error' } }));
    }
  };
  const server = createServer((request, response) => void handle(request, response, false));
  // A WebSocket upgrade never reaches 'request': answer it through the same handlers, then hang up.
  server.on('upgrade', (request: IncomingMessage, socket: Duplex) => {
    const response = new ServerResponse(request);
    response.assignSocket(socket as Socket);
    response.on('finish', () => socket.destroy());
    void handle(request, response, true);
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const address = server.address();
  const actualPort = typeof address === 'object' && address ? address.port : port;
  return { server, url: `http://127.0.0.1:${actualPort}` };
}
