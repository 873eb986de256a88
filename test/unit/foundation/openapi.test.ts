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

  it('is committed up to date (run `npm run openapi` after changing a contract)', () => {
    const committed = JSON.parse(readFileSync('docs/openapi.json', 'utf8'));
    expect(committed).toEqual(JSON.parse(JSON.stringify(document)));
  });
});
