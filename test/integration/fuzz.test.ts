import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROUTES, type RouteDefinition, STREAM_ROUTE } from '../../functions/shared/routes.ts';
import { api, apiUrl, createOrg, createProject, type TestOrg, waitForProject } from './helpers.ts';

/**
 * Property-based fuzzing of every route of the route table (new routes are covered automatically):
 * random path ids, queries, headers and bodies, with a fixed seed. The property: never a 5xx, every
 * error in the envelope (checked by `api()`, which also checks every 2xx against its contract), and
 * the server still up at the end. CI runs a bounded number per route; `npm run fuzz` runs
 * FUZZ_RUNS (10,000) per route and prints the counts by status.
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 12);
const SEED = Number(process.env.FUZZ_SEED ?? 20261123);

const counts = new Map<number, number>();

const junk = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 20 }),
  fc.constantFrom('', ' ', '..', '../..', '%00', '%E0%A4%A', '0', '-1', '1e9', 'null', '[]', '{}', '\u0000'),
  fc.integer().map(String),
  fc.string({ minLength: 300, maxLength: 2_000 }),
);

function pathFor(
  route: RouteDefinition,
  ids: Record<string, string>,
  values: Record<string, string>,
): string {
  return route.path.replace(/\{([^}]+)\}/g, (_match, name: string) => {
    const value = values[name] ?? ids[name] ?? 'x';
    return value === '' ? 'x' : encodeURIComponent(value);
  });
}

const queryValue = fc.oneof(junk, fc.constantFrom('true', 'false', '1', '500', '501', 'plans', 'ready'));
const queryName = fc.oneof(
  fc.constantFrom(
    'limit',
    'cursor',
    'compact',
    'status',
    'fileId',
    'fileName',
    'sheets',
    'sheetId',
    'pageNumber',
    'pageStart',
    'pageEnd',
    'classification',
    'regionType',
    'projectId',
    'project_id',
    'activeOnly',
    'path',
    'after',
  ),
  fc.string({ minLength: 1, maxLength: 12 }),
);
const body = fc.oneof(
  fc.json({ maxDepth: 3 }),
  fc.constantFrom('{', '{"name":', 'null', '[]', '"x"', '{"files":[{}]}', '{"name":"ok"}'),
  fc
    .record({
      name: junk,
      files: fc.array(
        fc.record({
          fileName: junk,
          contentType: fc.constantFrom('application/pdf', 'text/plain', ''),
          fileSize: fc.oneof(fc.integer(), fc.double()),
          sha256: fc.oneof(junk, fc.stringMatching(/^[0-9a-f]{64}$/)),
        }),
        { maxLength: 3 },
      ),
      directUploads: fc.array(fc.record({ documentId: junk, uploadToken: junk }), { maxLength: 2 }),
      label: junk,
      question: junk,
      entityTypes: fc.array(fc.oneof(junk, fc.constantFrom('region', 'specification', 'doc')), {
        maxLength: 3,
      }),
      scopes: fc.array(junk, { maxLength: 3 }),
      url: fc.oneof(junk, fc.webUrl()),
    })
    .map((value) => JSON.stringify(value)),
);
/** Mostly valid credentials (so requests get past authentication), sometimes none, forged or of the other kind. */
const auth = fc.oneof(
  { arbitrary: fc.constant('valid' as const), weight: 6 },
  { arbitrary: fc.constantFrom('none' as const, 'garbage' as const, 'otherKind' as const), weight: 2 },
);

describe('fuzzing every route', () => {
  let org: TestOrg;
  let key: string;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    // Enterprise plan: a key may allow 60,000 requests a minute, so the fuzzer reaches the handlers
    // rather than mostly the rate limiter.
    org = await createOrg(1_000_000, 'enterprise');
    const created = await api('/api/open-api/keys', {
      method: 'POST',
      cookie: org.sessionToken,
      body: { label: 'fuzzer', rateLimitPerMinute: 60_000 },
    });
    key = created.body.secret;
    const projectId = String((await createProject(key, 'Fuzzed')).body.project.id);
    ids.projectId = projectId;
    await waitForProject(key, projectId);
    const job = await api(`/api/open/v1/projects/${projectId}/jobs`, { method: 'POST', key, body: {} });
    ids.jobId = String(job.body.job.id);
    // A review and an execution of the project, so review paths also reach real records.
    const review = await api(`/api/open/v1/projects/${projectId}/reviews`, {
      method: 'POST',
      key,
      body: { name: 'Fuzzed review' },
      headers: { 'idempotency-key': 'fuzz-review' },
    });
    ids.reviewId = String(review.body.review.id);
    const asked = await api(`/api/open/v1/projects/${projectId}/reviews/${ids.reviewId}/executions`, {
      method: 'POST',
      key,
      body: { question: 'Anything about gypsum board?' },
      headers: { 'idempotency-key': 'fuzz-ask' },
    });
    ids.executionId = String(asked.body.execution.id);
  });

  afterAll(() => {
    const summary = [...counts.entries()].sort(([a], [b]) => a - b).map(([status, n]) => `${status}: ${n}`);
    console.log(`fuzz (seed ${SEED}, ${RUNS} per route): ${summary.join(', ')}`);
  });

  it.concurrent.each([...ROUTES, STREAM_ROUTE] as RouteDefinition[])(
    '$id never answers 5xx',
    async (route) => {
      const names = [...route.path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1] as string);
      const request = fc.record({
        pathValues: fc.dictionary(fc.constantFrom(...(names.length ? names : ['none'])), junk, {
          maxKeys: 2,
        }),
        query: fc.array(fc.tuple(queryName, queryValue), { maxLength: 4 }),
        body,
        contentType: fc.constantFrom(
          'application/json',
          'text/plain',
          'application/x-www-form-urlencoded',
          '',
        ),
        accept: fc.constantFrom('text/event-stream', 'application/x-ndjson', '*/*', 'application/json', ''),
        // Header values a client can send (visible ASCII), sometimes none, sometimes far too long.
        idempotencyKey: fc.option(fc.stringMatching(/^[\x21-\x7e]{1,400}$/), { nil: undefined }),
        auth,
      });
      await fc.assert(
        fc.asyncProperty(request, async (input) => {
          const path = pathFor(route, ids, input.pathValues);
          const query = new URLSearchParams(input.query).toString();
          const headers: Record<string, string> = {};
          if (input.contentType) headers['content-type'] = input.contentType;
          if (input.accept) headers.accept = input.accept;
          if (input.idempotencyKey) headers['idempotency-key'] = input.idempotencyKey;
          // `valid`: the credential the route takes; `otherKind`: the other one (a key on a session route).
          const session = (input.auth === 'valid') === (route.auth === 'session');
          if (input.auth === 'garbage')
            headers.authorization = `Bearer psk_${'a'.repeat(16)}_${'b'.repeat(43)}`;
          else if (input.auth !== 'none' && !session) headers.authorization = `Bearer ${key}`;
          const reply = await api(`${path}${query ? `?${query}` : ''}`, {
            method: route.method,
            headers,
            ...(input.auth !== 'none' && input.auth !== 'garbage' && session
              ? { cookie: org.sessionToken }
              : {}),
            ...(route.method === 'GET' ? {} : { rawBody: input.body }),
          });
          counts.set(reply.status, (counts.get(reply.status) ?? 0) + 1);
          expect(reply.status, `${route.method} ${path}?${query}`).toBeLessThan(500);
        }),
        { seed: SEED, numRuns: RUNS, endOnFailure: true },
      );
    },
    // Routes run side by side, so each may take as long as the whole run (about 0.3 s per request).
    Math.max(120_000, RUNS * 300),
  );

  it('leaves the server up', async () => {
    expect(
      (await fetch(`${apiUrl}/api/open/v1/projects`, { headers: { authorization: `Bearer ${key}` } })).status,
    ).toBe(200);
  });
});
