import '../functions/shared/http/schema-ids.ts';
import { OpenAPIRegistry, OpenApiGeneratorV31 } from '@asteasolutions/zod-to-openapi';
import type { z } from 'zod';
import { ErrorEnvelopeSchema } from '../functions/shared/http/params.ts';
import { type Endpoint, ROUTES, STREAM_ROUTE } from '../functions/shared/routes.ts';

const COMMON_ERRORS: Record<number, string> = {
  400: '`invalid_request` (names the field), `invalid_json`, `invalid_cursor`.',
  401: '`unauthorized`: missing, invalid, expired or revoked credentials.',
  403: '`scope_required`: the key lacks the scope named in `error.scope`.',
  413: '`payload_too_large`: JSON bodies are limited to 1 MiB.',
  429: '`rate_limited`: wait the `Retry-After` seconds.',
  500: '`internal_error`: nothing internal is exposed; quote `requestId`.',
};

function register(registry: OpenAPIRegistry, route: Endpoint): void {
  const contract = { ...route.request, responses: route.responses };
  const responses: Record<string, { description: string; content?: Record<string, { schema: z.ZodType }> }> =
    {};
  for (const [status, response] of Object.entries(contract.responses)) {
    const schema = response.schema ?? (Number(status) >= 400 ? ErrorEnvelopeSchema : undefined);
    responses[status] = {
      description: response.description,
      ...(schema ? { content: { 'application/json': { schema } } } : {}),
    };
  }
  for (const [status, description] of Object.entries(COMMON_ERRORS)) {
    if (route.auth === 'session' && status === '403') continue;
    if (!contract.body && status === '413') continue;
    responses[status] ??= { description, content: { 'application/json': { schema: ErrorEnvelopeSchema } } };
  }
  registry.registerPath({
    method: route.method.toLowerCase() as 'get' | 'post',
    path: route.path,
    operationId: route.id,
    summary: route.summary,
    description: route.scope
      ? `Requires scope \`${route.scope}\`.`
      : 'Session-authenticated (cookie `service_session`); bearer keys are refused.',
    security: route.auth === 'session' ? [{ sessionCookie: [] }] : [{ bearerApiKey: [] }],
    'x-required-scope': route.scope ?? null,
    request: {
      ...(contract.path ? { params: contract.path as z.ZodObject } : {}),
      ...(contract.query ? { query: contract.query as z.ZodObject } : {}),
      ...(contract.headers ? { headers: contract.headers as z.ZodObject } : {}),
      ...(contract.body
        ? { body: { required: true, content: { 'application/json': { schema: contract.body } } } }
        : {}),
    },
    responses,
  });
}

/** The OpenAPI 3.1 document, generated from the endpoints' definitions (`ROUTES`). */
export function buildOpenApiDocument() {
  const registry = new OpenAPIRegistry();
  registry.registerComponent('securitySchemes', 'bearerApiKey', {
    type: 'http',
    scheme: 'bearer',
    description: 'API key `psk_<id>_<secret>`, created under /api/open-api/keys. Keys carry scopes.',
  });
  registry.registerComponent('securitySchemes', 'sessionCookie', {
    type: 'apiKey',
    in: 'cookie',
    name: 'service_session',
  });
  for (const route of ROUTES) register(registry, route);

  registry.registerPath({
    method: 'get',
    path: STREAM_ROUTE.path,
    operationId: STREAM_ROUTE.id,
    summary: STREAM_ROUTE.summary,
    description: STREAM_ROUTE.description,
    security: [{ bearerApiKey: [] }],
    'x-required-scope': STREAM_ROUTE.scope,
    request: {
      params: STREAM_ROUTE.request.path,
      query: STREAM_ROUTE.request.query,
      headers: STREAM_ROUTE.request.headers,
    },
    responses: Object.fromEntries(
      Object.entries(STREAM_ROUTE.responses).map(([status, response]) => [
        status,
        {
          description: response.description,
          content:
            'content' in response
              ? Object.fromEntries(
                  Object.entries(response.content).map(([type, schema]) => [type, { schema }]),
                )
              : { 'application/json': { schema: ErrorEnvelopeSchema } },
        },
      ]),
    ),
  });

  return new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: '3.1.0',
    info: {
      title: 'Project Source Search and Review API',
      version: '1.0.0',
      description:
        'Ingest construction drawing sets, specification books and addenda into projects; list, search and question what was extracted. Decisions on what the contract leaves open are recorded in docs/decisions.md.',
    },
    servers: [{ url: 'http://127.0.0.1:3000', description: 'Local stack (`npm start`)' }],
  });
}
