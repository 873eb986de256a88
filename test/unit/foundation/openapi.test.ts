import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ROUTES, type RouteDefinition } from '../../../functions/shared/routes.ts';
import { buildOpenApiDocument } from '../../../scripts/openapi-document.ts';

describe('OpenAPI document', () => {
  const document = buildOpenApiDocument();

  it('documents every route of the route table with its scope', () => {
    for (const route of ROUTES as readonly RouteDefinition[]) {
      const operation = document.paths?.[route.path]?.[route.method.toLowerCase() as 'get'];
      expect(operation, `${route.method} ${route.path}`).toBeDefined();
      expect((operation as Record<string, unknown>)['x-required-scope']).toBe(route.scope ?? null);
    }
  });

  it('documents the Idempotency-Key header each review write requires, and invalid_review for its payload', () => {
    // Prepare
    const writes = [
      '/api/open/v1/projects/{projectId}/reviews',
      '/api/open/v1/projects/{projectId}/reviews/{reviewId}/executions',
    ];
    // Act
    const operations = writes.map((path) => document.paths?.[path]?.post as Record<string, unknown>);
    // Assess
    for (const operation of operations) {
      expect(operation.parameters).toContainEqual(
        expect.objectContaining({ name: 'idempotency-key', in: 'header', required: true }),
      );
      expect(JSON.stringify((operation.responses as Record<string, unknown>)['400'])).toContain(
        'invalid_review',
      );
    }
  });

  it('is committed up to date (run `npm run openapi` after changing a contract)', () => {
    const committed = JSON.parse(readFileSync('docs/openapi.json', 'utf8'));
    expect(committed).toEqual(JSON.parse(JSON.stringify(document)));
  });
});
