/**
 * bench/api-load: latency of the API under 20 concurrent clients, through the local stack (the real
 * handlers, DynamoDB Local, the local API gateway), with autocannon.
 *
 *   npm run bench:api-load [-- --requests 3000 --connections 20]
 *
 * Prints p50/p95/p99 and throughput of a get (GET /projects/{id}) and a listing (GET /projects/{id}/jobs
 * with 20 jobs), beside the reference measured in the same run: an unauthenticated request that no
 * route matches (the local gateway and one Lambda invocation, no authentication, no table), as ratios.
 * Needs no corpus.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { recordResult } from '../results.ts';

const args = process.argv.slice(2);
const option = (name: string, fallback: number) =>
  args.includes(name) ? Number(args[args.indexOf(name) + 1]) : fallback;
const requests = option('--requests', 3000);
const connections = option('--connections', 20);

process.env.POWERTOOLS_LOG_LEVEL ??= 'ERROR';
const dataDir = mkdtempSync(join(tmpdir(), 'psa-load-'));
const { startLocalStack } = await import('../../local/stack.ts');
const { seedOrganization, issueCredentials } = await import('../../local/seed.ts');
const stack = await startLocalStack({ dataDir, persistDynamo: false, apiPort: 0 });
// Enterprise: the per-key rate limit (60,000/min) stays above what the bench sends.
const orgId = await seedOrganization({ name: 'load', credits: 10_000_000, plan: 'enterprise' });
const { sessionToken } = await issueCredentials({ orgId });

async function call(path: string, init: RequestInit = {}): Promise<Record<string, unknown>> {
  const response = await fetch(`${stack.apiUrl}${path}`, init);
  const json = (await response.json()) as Record<string, unknown>;
  if (response.status >= 400) throw new Error(`${path}: ${response.status} ${JSON.stringify(json)}`);
  return json;
}
const created = await call('/api/open-api/keys', {
  method: 'POST',
  headers: { cookie: `service_session=${sessionToken}`, 'content-type': 'application/json' },
  body: JSON.stringify({ label: 'load', rateLimitPerMinute: 60_000 }),
});
const key = String(created.secret);
const auth = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
const project = (
  await call('/api/open/v1/projects', { method: 'POST', headers: auth, body: '{"name":"Load"}' })
).project as { id: string };
while (
  ((await call(`/api/open/v1/projects/${project.id}`, { headers: auth })).project as { status: string })
    .status !== 'ready'
)
  await new Promise((resolve) => setTimeout(resolve, 100));
for (let index = 0; index < 20; index++) {
  await call(`/api/open/v1/projects/${project.id}/jobs`, { method: 'POST', headers: auth, body: '{}' });
}

interface Measure {
  name: string;
  p50: number;
  p95: number;
  p99: number;
  rps: number;
  non2xx: number;
}

async function measure(
  name: string,
  path: string,
  headers: Record<string, string>,
  expected: number,
): Promise<Measure> {
  const result = await autocannon({
    url: `${stack.apiUrl}${path}`,
    connections,
    amount: requests,
    headers,
  });
  const unexpected = Object.entries(result.statusCodeStats ?? {})
    .filter(([status]) => Number(status) !== expected)
    .reduce((sum, [, stats]) => sum + (stats as { count: number }).count, 0);
  return {
    name,
    p50: result.latency.p50,
    p95: result.latency.p97_5 > 0 ? percentile95(result) : result.latency.p90,
    p99: result.latency.p99,
    rps: result.requests.average,
    non2xx: unexpected,
  };
}

/** autocannon reports p90 and p97.5; p95 is read between them (linear), as its histogram allows. */
function percentile95(result: autocannon.Result): number {
  return result.latency.p90 + ((result.latency.p97_5 - result.latency.p90) * 5) / 7.5;
}

// Warm-up: module loading and DynamoDB Local's JIT are not what is measured.
await measure('warm-up', `/api/open/v1/projects/${project.id}`, { authorization: `Bearer ${key}` }, 200);

const reference = await measure('reference: unmatched route (no auth, no table)', '/nothing-here', {}, 404);
const get = await measure(
  'get project',
  `/api/open/v1/projects/${project.id}`,
  { authorization: `Bearer ${key}` },
  200,
);
const list = await measure(
  'list 20 jobs of a project',
  `/api/open/v1/projects/${project.id}/jobs?limit=20`,
  { authorization: `Bearer ${key}` },
  200,
);

console.log(`\n${requests} requests each, ${connections} connections (local stack, one process)\n`);
console.log('| request | p50 ms | p95 ms | p99 ms | req/s | unexpected status | p95 / reference |');
console.log('|---|---|---|---|---|---|---|');
for (const row of [reference, get, list]) {
  console.log(
    `| ${row.name} | ${row.p50.toFixed(1)} | ${row.p95.toFixed(1)} | ${row.p99.toFixed(1)} | ${row.rps.toFixed(0)} | ${row.non2xx} | ${(row.p95 / reference.p95).toFixed(2)}x |`,
  );
}

recordResult(
  'api-load',
  [reference, get, list].map((row) => ({
    measure: `${row.name}: p50 / p95 / p99, ${connections} connections`,
    result: `${row.p50.toFixed(1)} / ${row.p95.toFixed(1)} / ${row.p99.toFixed(1)} ms, ${row.rps.toFixed(0)} req/s, p95 ${(row.p95 / reference.p95).toFixed(2)}x the reference`,
  })),
);
await stack.stop();
rmSync(dataDir, { recursive: true, force: true });
