/**
 * bench/review-stream: the review stream through the local API. Reports, in the same run:
 * - time to the first event (`stream.ready`) of a connection, p50/p95 over 50 connections, beside a
 *   plain API GET of the same execution (the reference: authentication, one read);
 * - a replay of 10,000 stored events to the terminal one, as NDJSON and SSE, beside the raw DynamoDB
 *   query of the same events (the reference).
 * Targets: first event within 100 ms; a replay of 10,000 events under 300 ms.
 *
 *   npm run bench:review-stream [-- --events 10000] [--connections 50]
 *
 * The events are synthetic; no corpus is needed (CORPUS_DIR is not read).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { benchApi, createReadyProject } from '../local-api.ts';
import { recordResult } from '../results.ts';
import { percentile } from '../stats.ts';

const args = process.argv.slice(2);
const eventCount = args.includes('--events') ? Number(args[args.indexOf('--events') + 1]) : 10_000;
const connections = args.includes('--connections') ? Number(args[args.indexOf('--connections') + 1]) : 50;

const dataDir = mkdtempSync(join(tmpdir(), 'psa-review-stream-'));
const { stack, orgId, call, apiKey } = await benchApi({
  dataDir,
  persistDynamo: false,
  orgName: 'review-stream',
  credits: 1_000_000,
  plan: 'enterprise',
});
const { dynamo } = await import('../../functions/shared/clients.ts');
const { entities, partitions } = await import('../../functions/adapters/dynamodb/table.ts');
const { batchWriteAll } = await import('../../functions/adapters/dynamodb/batch-write.ts');
const { executionEventItem } = await import('../../functions/adapters/dynamodb/review-event-store.ts');
const { queryAll } = await import('../../functions/adapters/dynamodb/query-page.ts');
const { newId } = await import('../../functions/core/ids.ts');
const table = process.env.TABLE_NAME as string;

const projectId = await createReadyProject(call, 'Stream');
const review = (
  await call(
    `/api/open/v1/projects/${projectId}/reviews`,
    'POST',
    { name: 'Stream bench' },
    {
      'idempotency-key': 'bench-review',
    },
  )
).review as { id: string };
const executionId = newId('exe');
const createdAt = new Date().toISOString();
await batchWriteAll(dynamo, table, [
  {
    PutRequest: {
      // Only the fields the stream reads: a bench row, not a whole execution.
      Item: {
        ...entities.reviewExecution.key(orgId, executionId),
        entity: entities.reviewExecution.entity,
        v: entities.reviewExecution.version,
        orgId,
        id: executionId,
        reviewId: review.id,
        projectId,
        status: 'succeeded',
        nextSequence: eventCount + 1,
      },
    },
  },
  ...Array.from({ length: eventCount }, (_, index) => {
    const sequence = index + 1;
    const last = sequence === eventCount;
    return {
      PutRequest: {
        Item: executionEventItem({
          version: 1,
          executionId,
          sequence,
          createdAt,
          type: last ? 'response.completed' : 'response.text.delta',
          payload: last
            ? { text: 'The answer.', status: 'succeeded' }
            : {
                delta: `Sentence ${sequence} of a long streamed answer, with a citation marker [${sequence % 7}]. `,
              },
        }),
      },
    };
  }),
]);

const streamPath = `/api/open/v1/projects/${projectId}/reviews/${review.id}/executions/${executionId}/stream`;
const executionPath = `/api/open/v1/projects/${projectId}/reviews/${review.id}/executions/${executionId}`;
const headers = (accept: string) => ({ authorization: `Bearer ${apiKey}`, accept });

/** Milliseconds until the first complete event (stream.ready) arrives; the connection is then dropped. */
async function firstEventMs(): Promise<number> {
  const controller = new AbortController();
  const started = performance.now();
  // A new connection (after = -1): the first events are read before stream.ready is sent.
  const response = await fetch(`${stack.apiUrl}${streamPath}`, {
    headers: headers('application/x-ndjson'),
    signal: controller.signal,
  });
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  let text = '';
  while (!text.includes('\n')) {
    const { value, done } = await reader.read();
    if (done) break;
    text += new TextDecoder().decode(value);
  }
  const elapsed = performance.now() - started;
  if (!text.includes('"stream.ready"'))
    throw new Error(`first event was not stream.ready: ${text.slice(0, 200)}`);
  controller.abort();
  return elapsed;
}

async function replayMs(accept: string): Promise<{ ms: number; events: number }> {
  const started = performance.now();
  const response = await fetch(`${stack.apiUrl}${streamPath}`, { headers: headers(accept) });
  const text = await response.text();
  const ms = performance.now() - started;
  const events =
    accept === 'application/x-ndjson' ? text.trim().split('\n').length : text.trim().split('\n\n').length;
  return { ms, events };
}

async function apiGetMs(): Promise<number> {
  const started = performance.now();
  await call(executionPath);
  return performance.now() - started;
}

// Warm both paths, then interleave.
await firstEventMs();
await apiGetMs();
const first: number[] = [];
const gets: number[] = [];
for (let i = 0; i < connections; i++) {
  first.push(await firstEventMs());
  gets.push(await apiGetMs());
}
await replayMs('application/x-ndjson');
const ndjson: number[] = [];
const sse: number[] = [];
const raw: number[] = [];
let replayed = 0;
for (let i = 0; i < 5; i++) {
  const n = await replayMs('application/x-ndjson');
  ndjson.push(n.ms);
  replayed = n.events;
  sse.push((await replayMs('text/event-stream')).ms);
  const started = performance.now();
  await queryAll(dynamo, {
    TableName: table,
    KeyConditionExpression: 'pk = :pk AND sk > :after',
    ExpressionAttributeValues: { ':pk': partitions.execution(executionId), ':after': 'EVENT#' },
    ConsistentRead: true,
  });
  raw.push(performance.now() - started);
}
console.log(
  `first event: p50 ${percentile(first, 0.5).toFixed(1)} / p95 ${percentile(first, 0.95).toFixed(1)} ms over ${connections} connections; ` +
    `plain API GET of the execution p50 ${percentile(gets, 0.5).toFixed(1)} / p95 ${percentile(gets, 0.95).toFixed(1)} ms; ` +
    `ratio p95 ${(percentile(first, 0.95) / percentile(gets, 0.95)).toFixed(2)}x (target: first event <= 100 ms)`,
);
console.log(
  `replay of ${eventCount} events (${replayed} frames with stream.ready): NDJSON median ${percentile(ndjson, 0.5).toFixed(0)} ms, SSE median ${percentile(sse, 0.5).toFixed(0)} ms; ` +
    `raw DynamoDB query of the same events median ${percentile(raw, 0.5).toFixed(0)} ms; ratio NDJSON/raw ${(percentile(ndjson, 0.5) / percentile(raw, 0.5)).toFixed(2)}x (target: replay < 300 ms)`,
);
recordResult('review-stream', [
  {
    measure: `first event over ${connections} connections, p50 / p95 (plain GET of the execution)`,
    result: `${percentile(first, 0.5).toFixed(1)} / ${percentile(first, 0.95).toFixed(1)} ms (${percentile(gets, 0.5).toFixed(1)} / ${percentile(gets, 0.95).toFixed(1)} ms)`,
    target: 'first event <= 100 ms',
  },
  {
    measure: `replay of ${eventCount} events, median NDJSON / SSE (raw DynamoDB query)`,
    result: `${percentile(ndjson, 0.5).toFixed(0)} / ${percentile(sse, 0.5).toFixed(0)} ms (${percentile(raw, 0.5).toFixed(0)} ms)`,
    target: '< 300 ms',
  },
]);
await stack.stop();
rmSync(dataDir, { recursive: true, force: true });
process.exit(0);
