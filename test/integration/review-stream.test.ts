import { request as httpRequest } from 'node:http';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { entities } from '../../functions/adapters/dynamodb/table.ts';
import { newId } from '../../functions/core/ids.ts';
import { dynamo } from '../../functions/shared/clients.ts';
import { api, apiUrl, createOrg, type TestOrg } from './helpers.ts';

/**
 * The stream endpoint replays stored events by sequence. The execution and its events are written
 * straight into the table here (the review flow itself is tested in reviews.test.ts), so the stream's
 * own rules are tested on exactly known events.
 */
async function seedExecution(orgId: string, projectId: string, reviewId: string, sequences: number[]) {
  const executionId = newId('exe');
  await dynamo.send(
    new PutCommand({
      TableName: process.env.TABLE_NAME,
      Item: {
        ...entities.reviewExecution.key(orgId, executionId),
        entity: 'reviewExecution',
        projectId,
        reviewId,
        status: 'succeeded',
      },
    }),
  );
  const last = sequences.at(-1);
  for (const sequence of sequences) {
    const type = sequence === last ? 'response.completed' : 'response.text.delta';
    const payload =
      type === 'response.completed' ? { text: 'Done.', status: 'succeeded' } : { delta: `d${sequence}` };
    await dynamo.send(
      new PutCommand({
        TableName: process.env.TABLE_NAME,
        Item: {
          ...entities.executionEvent.key(executionId, sequence),
          event: { version: 1, executionId, sequence, createdAt: new Date().toISOString(), type, payload },
        },
      }),
    );
  }
  return executionId;
}

describe('review execution stream (function URL handler)', () => {
  let org: TestOrg;
  let other: TestOrg;
  let executionId: string;
  const projectId = 'prj_00000000000000000000000001';
  const reviewId = newId('rev');
  const path = () =>
    `/api/open/v1/projects/${projectId}/reviews/${reviewId}/executions/${executionId}/stream`;

  beforeAll(async () => {
    org = await createOrg();
    other = await createOrg();
    executionId = await seedExecution(org.orgId, projectId, reviewId, [1, 3, 10, 11]);
  });

  function get(url: string, headers: Record<string, string>) {
    return fetch(`${apiUrl}${url}`, { headers });
  }

  it('replays every event as SSE with id, event and data, and ends after the terminal event', async () => {
    const response = await get(path(), {
      authorization: `Bearer ${org.apiKey}`,
      accept: 'text/event-stream',
    });
    const text = await response.text();

    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    const messages = text.trim().split('\n\n');
    expect(messages.map((message) => message.split('\n')[0])).toEqual([
      'id: 0',
      'id: 1',
      'id: 3',
      'id: 10',
      'id: 11',
    ]);
    expect(messages[0]).toContain('event: stream.ready');
    expect(messages.at(-1)).toContain('event: response.completed');
    const data = JSON.parse(messages[1]?.split('\n')[2]?.slice('data: '.length) ?? '{}');
    expect(data).toMatchObject({
      version: 1,
      executionId,
      sequence: 1,
      type: 'response.text.delta',
      payload: { delta: 'd1' },
    });
  });

  it('replays only events after `after`, as NDJSON', async () => {
    const response = await get(`${path()}?after=3`, {
      authorization: `Bearer ${org.apiKey}`,
      accept: 'application/x-ndjson',
    });
    const lines = (await response.text())
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    // stream.ready opens every connection, with a sequence greater than the cursor it resumes after.
    expect(lines.map((event) => [event.type, event.sequence])).toEqual([
      ['stream.ready', 4],
      ['response.text.delta', 10],
      ['response.completed', 11],
    ]);
  });

  it('gives stream.ready a sequence greater than `after`, never one the client has seen', async () => {
    // Prepare: events as the store allocates them (odd sequences)
    const allocated = await seedExecution(org.orgId, projectId, reviewId, [1, 3, 5, 7, 9]);
    const url = path().replace(executionId, allocated);
    // Act
    const response = await get(`${url}?after=7`, {
      authorization: `Bearer ${org.apiKey}`,
      accept: 'application/x-ndjson',
    });
    const lines = (await response.text())
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    // Assess
    expect(lines.map((event) => [event.type, event.sequence])).toEqual([
      ['stream.ready', 8],
      ['response.completed', 9],
    ]);
  });

  it('ends a stream whose `after` is at or past the end of an ended execution with its terminal event', async () => {
    // Prepare: the client already read the terminal event (11), or asks past it
    const started = Date.now();
    // Act
    const replies = await Promise.all(
      [11, 500].map(async (after) => {
        const response = await get(`${path()}?after=${after}`, {
          authorization: `Bearer ${org.apiKey}`,
          accept: 'application/x-ndjson',
        });
        return (await response.text())
          .trim()
          .split('\n')
          .map((line) => JSON.parse(line) as { type: string; sequence: number });
      }),
    );
    // Assess: no silent wait for a heartbeat that never comes
    expect(replies.map((lines) => lines.map((event) => event.type))).toEqual([
      ['stream.ready', 'response.completed'],
      ['stream.ready', 'response.completed'],
    ]);
    expect(replies.map((lines) => lines[0]?.sequence)).toEqual([12, 500]);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('refuses a request without Accept with 406, and serves SSE to one that accepts anything', async () => {
    // Prepare: node:http sends no Accept of its own (fetch and curl send */*)
    const withoutAccept = () =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        const request = httpRequest(`${apiUrl}${path()}`, {
          headers: { authorization: `Bearer ${org.apiKey}` },
        });
        request.on('response', (response) => {
          let body = '';
          response.on('data', (chunk) => {
            body += chunk;
          });
          response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
        });
        request.on('error', reject);
        request.end();
      });
    // Act
    const missing = await withoutAccept();
    const anything = await get(path(), { authorization: `Bearer ${org.apiKey}`, accept: '*/*' });
    // Assess
    expect([missing.status, JSON.parse(missing.body).error.code]).toEqual([
      406,
      'review_stream_media_type_not_acceptable',
    ]);
    expect(anything.status).toBe(200);
    expect(anything.headers.get('content-type')).toContain('text/event-stream');
    expect((await anything.text()).startsWith('id: 0\nevent: stream.ready')).toBe(true);
  });

  it('refuses bad requests with the spec codes', async () => {
    const auth = { authorization: `Bearer ${org.apiKey}` };
    const cases: [string, Record<string, string>, number, string][] = [
      [`${path()}?after=-2`, { ...auth, accept: 'text/event-stream' }, 400, 'invalid_review_stream_after'],
      [
        `${path()}?after=1&after=2`,
        { ...auth, accept: 'text/event-stream' },
        400,
        'invalid_review_stream_query',
      ],
      [`${path()}?cursor=1`, { ...auth, accept: 'text/event-stream' }, 400, 'invalid_review_stream_query'],
      [path(), { ...auth, accept: 'application/json' }, 406, 'review_stream_media_type_not_acceptable'],
      [path(), { accept: 'text/event-stream' }, 401, 'unauthorized'],
      [
        path().replace(reviewId, 'rev_other'),
        { ...auth, accept: 'text/event-stream' },
        404,
        'review_execution_not_found',
      ],
      // Ids are checked for shape before any read: a 1,100-character id never reaches DynamoDB.
      [
        path().replace(executionId, `exe_${'a'.repeat(1100)}`),
        { ...auth, accept: 'text/event-stream' },
        404,
        'review_execution_not_found',
      ],
    ];
    for (const [url, headers, status, code] of cases) {
      const response = await get(url, headers);
      const body = (await response.json()) as { error: { code: string } };
      expect([url, response.status, body.error.code]).toEqual([url, status, code]);
    }
  });

  it('refuses a WebSocket upgrade with review_stream_transport_unsupported', async () => {
    const reply = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const request = httpRequest(`${apiUrl}${path()}`, {
        headers: {
          authorization: `Bearer ${org.apiKey}`,
          accept: 'text/event-stream',
          connection: 'Upgrade',
          upgrade: 'websocket',
          'sec-websocket-version': '13',
          'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==',
        },
      });
      request.on('response', (response) => {
        let body = '';
        response.on('data', (chunk) => {
          body += chunk;
        });
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
      });
      request.on('upgrade', () => reject(new Error('the server accepted the upgrade')));
      request.on('error', reject);
      request.end();
    });
    expect(reply.status).toBe(400);
    expect(JSON.parse(reply.body).error.code).toBe('review_stream_transport_unsupported');
  });

  it("answers another organization's execution with 404 and a key without reviews:read with 403", async () => {
    const foreign = await get(path(), {
      authorization: `Bearer ${other.apiKey}`,
      accept: 'text/event-stream',
    });
    expect(foreign.status).toBe(404);
    const key = await org.keyWith(['jobs:read']);
    const scoped = await get(path(), { authorization: `Bearer ${key}`, accept: 'text/event-stream' });
    expect(scoped.status).toBe(403);
    expect(((await scoped.json()) as { error: unknown }).error).toMatchObject({
      code: 'scope_required',
      scope: 'reviews:read',
    });
  });

  /** A running execution with one event: its stream follows it, waiting for more. */
  const runningExecution = async () => {
    const running = newId('exe');
    await dynamo.send(
      new PutCommand({
        TableName: process.env.TABLE_NAME,
        Item: {
          ...entities.reviewExecution.key(org.orgId, running),
          entity: 'reviewExecution',
          projectId,
          reviewId,
          status: 'running',
        },
      }),
    );
    await dynamo.send(
      new PutCommand({
        TableName: process.env.TABLE_NAME,
        Item: {
          ...entities.executionEvent.key(running, 1),
          event: {
            version: 1,
            executionId: running,
            sequence: 1,
            createdAt: new Date().toISOString(),
            type: 'response.started',
            payload: { responseTargetMs: 20_000 },
          },
        },
      }),
    );
    return running;
  };

  it('ends an open stream within 5 s of the revocation of its key', async () => {
    // Prepare: a key of its own, following a running execution
    const running = await runningExecution();
    const created = await api('/api/open-api/keys', {
      method: 'POST',
      cookie: org.sessionToken,
      body: { label: 'revoked while streaming', scopes: ['reviews:read'] },
    });
    const response = await get(path().replace(executionId, running), {
      authorization: `Bearer ${created.body.secret}`,
      accept: 'application/x-ndjson',
    });
    const reader = response.body?.getReader();
    const first = await reader?.read();
    // Act
    await api(`/api/open-api/keys/${created.body.key.id}/revoke`, {
      method: 'POST',
      cookie: org.sessionToken,
    });
    const revoked = Date.now();
    let ended = await reader?.read();
    while (ended && !ended.done) ended = await reader?.read();
    const reconnect = await get(path().replace(executionId, running), {
      authorization: `Bearer ${created.body.secret}`,
      accept: 'application/x-ndjson',
    });
    // Assess
    expect(new TextDecoder().decode(first?.value)).toContain('"stream.ready"');
    expect(Date.now() - revoked).toBeLessThan(7_000);
    expect(reconnect.status).toBe(401);
  });

  it('takes a client that hangs up (before the first byte or mid-stream) for no crash: nothing logged, nothing written', async () => {
    // Prepare: a running execution (the stream follows it), served by a local server in this process
    const running = await runningExecution();
    const { startApiServer } = await import('../../local/api-server.ts');
    const local = await startApiServer(0);
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const hangUp = new AbortController();
    try {
      // Act: read the first events, then hang up while the stream waits for more
      const response = await fetch(`${local.url}${path().replace(executionId, running)}`, {
        headers: { authorization: `Bearer ${org.apiKey}`, accept: 'application/x-ndjson' },
        signal: hangUp.signal,
      });
      const first = await response.body?.getReader().read();
      hangUp.abort();
      // and clients that hang up before the first byte (while the request is authenticated and read)
      await Promise.all(
        [1, 5, 20].map(async (delay) => {
          const early = new AbortController();
          setTimeout(() => early.abort(), delay);
          await fetch(`${local.url}${path().replace(executionId, running)}`, {
            headers: { authorization: `Bearer ${org.apiKey}`, accept: 'application/x-ndjson' },
            signal: early.signal,
          }).then(
            (reply) => reply.body?.cancel(),
            () => undefined,
          );
        }),
      );
      await new Promise((resolve) => setTimeout(resolve, 2_500));
      // Assess
      expect(new TextDecoder().decode(first?.value)).toContain('"stream.ready"');
      expect(logged.mock.calls.map((call) => String(call[0]))).toEqual([]);
    } finally {
      logged.mockRestore();
      local.server.closeAllConnections();
      await new Promise<void>((resolve) => local.server.close(() => resolve()));
    }
  });
});
