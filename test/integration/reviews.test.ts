import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { entities } from '../../functions/adapters/dynamodb/table.ts';
import {
  answerTurn,
  beginExecution,
  failExecution,
  finishExecution,
} from '../../functions/core/reviews/execute.ts';
import { askQuestion } from '../../functions/core/reviews/reviews.ts';
import { dynamo } from '../../functions/shared/clients.ts';
import { projectStore, reviewStore } from '../../functions/shared/wiring/adapters.ts';
import { reviewWiring } from '../../functions/shared/wiring/review.ts';
import { addendumPdf, drawingSheetPdf, specificationPdf } from '../fixtures/pdfs.ts';
import {
  api,
  apiUrl,
  createOrg,
  createProject,
  startIngest,
  type TestOrg,
  waitForJobEnd,
  waitForProject,
} from './helpers.ts';

interface Event {
  version: number;
  executionId: string;
  sequence: number;
  type: string;
  // biome-ignore lint/suspicious/noExplicitAny: tests inspect arbitrary payloads
  payload: any;
}

/** Reads a stream to its end (the server closes it after the terminal event). */
async function stream(path: string, key: string, format: 'sse' | 'ndjson', after?: number): Promise<Event[]> {
  const response = await fetch(`${apiUrl}${path}${after === undefined ? '' : `?after=${after}`}`, {
    headers: {
      authorization: `Bearer ${key}`,
      accept: format === 'sse' ? 'text/event-stream' : 'application/x-ndjson',
    },
  });
  if (response.status !== 200)
    throw new Error(`stream answered ${response.status}: ${await response.text()}`);
  const text = await response.text();
  if (format === 'ndjson')
    return text
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
  return text
    .trim()
    .split('\n\n')
    .map((message) => {
      const fields = Object.fromEntries(
        message
          .split('\n')
          .map((line) => [line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 2)]),
      );
      const event = JSON.parse(fields.data as string) as Event;
      expect([fields.id, fields.event]).toEqual([String(event.sequence), event.type]);
      return event;
    });
}

describe('reviews', () => {
  let org: TestOrg;
  let other: TestOrg;
  let projectId: string;
  const reviews = () => `/api/open/v1/projects/${projectId}/reviews`;
  const create = (body: unknown, key?: string, apiKey = org.apiKey) =>
    api(reviews(), {
      method: 'POST',
      key: apiKey,
      body,
      ...(key === undefined ? {} : { headers: { 'idempotency-key': key } }),
    });
  const ask = (reviewId: string, body: unknown, key?: string) =>
    api(`${reviews()}/${reviewId}/executions`, {
      method: 'POST',
      key: org.apiKey,
      body,
      ...(key === undefined ? {} : { headers: { 'idempotency-key': key } }),
    });

  beforeAll(async () => {
    [org, other] = await Promise.all([createOrg(), createOrg()]);
    projectId = String((await createProject(org.apiKey, 'Reviews')).body.project.id);
    await waitForProject(org.apiKey, projectId);
    const jobId = await startIngest(org.apiKey, projectId, [
      { fileName: 'spec-09-29-00.pdf', bytes: await specificationPdf() },
      { fileName: 'addendum-02.pdf', bytes: await addendumPdf() },
      {
        fileName: 'A-101.pdf',
        bytes: await drawingSheetPdf('A-101', 'FIRST FLOOR PLAN'),
        classification: 'plans',
      },
    ]);
    await waitForJobEnd(org.apiKey, jobId);
  }, 300_000);

  it('creates a review once per Idempotency-Key, also under concurrent identical requests', async () => {
    // Act
    const first = await create({ name: 'Permits' }, 'key-1');
    const retry = await create({ name: 'Permits' }, 'key-1');
    const conflict = await create({ name: 'Other name' }, 'key-1');
    const concurrent = await Promise.all(Array.from({ length: 6 }, () => create({ name: 'Same' }, 'key-2')));
    const refused = await Promise.all([
      create({ name: 'No key' }),
      create({ name: 'Long key' }, 'k'.repeat(257)),
      create({ name: '' }, 'key-3'),
      create({ name: 'x'.repeat(121) }, 'key-4'),
      create({ name: 'Extra', color: 'red' }, 'key-5'),
    ]);
    const foreign = await create({ name: 'Permits' }, 'key-1', other.apiKey);
    // Assess
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({
      idempotent: false,
      review: { name: 'Permits', title: null, executionCount: 0 },
    });
    expect(retry.status).toBe(201);
    expect(retry.body).toEqual({ ...first.body, idempotent: true });
    expect([conflict.status, conflict.body.error.code]).toEqual([409, 'idempotency_key_conflict']);
    expect(concurrent.map((reply) => reply.status)).toEqual([201, 201, 201, 201, 201, 201]);
    expect(new Set(concurrent.map((reply) => reply.body.review.id)).size).toBe(1);
    expect(concurrent.filter((reply) => reply.body.idempotent === false)).toHaveLength(1);
    expect(refused.map((reply) => [reply.status, reply.body.error.code])).toEqual([
      [400, 'idempotency_key_required'],
      [400, 'invalid_idempotency_key'],
      [400, 'invalid_review'],
      [400, 'invalid_review'],
      [400, 'invalid_review'],
    ]);
    // Another organization's project does not exist for it.
    expect([foreign.status, foreign.body.error.code]).toEqual([404, 'project_not_found']);
  });

  it('asks a question and streams the answer with its tools, sources and citations, to one terminal event', async () => {
    // Prepare
    const review = (await create({ name: 'Contract questions' }, 'key-ask')).body.review;
    // Act
    const asked = await ask(review.id, { question: 'Who pays the permit fees?' }, 'ask-1');
    const again = await ask(review.id, { question: 'Who pays the permit fees?' }, 'ask-1');
    const execution = asked.body.execution;
    const events = await stream(execution.streamUrl, org.apiKey, 'sse');
    const polled = (await api(execution.url, { key: org.apiKey })).body.execution;
    const reviewAfter = (await api(`${reviews()}/${review.id}`, { key: org.apiKey })).body.review;
    const search = (body: Record<string, unknown>) =>
      api(`/api/open/v1/projects/${projectId}/source-search`, { method: 'POST', key: org.apiKey, body });
    const [inReview, gypsumInReview, gypsumAnywhere] = await Promise.all([
      search({ query: 'permit fees', reviewId: review.id }),
      search({ query: 'gypsum board', reviewId: review.id, mode: 'exact' }),
      search({ query: 'gypsum board', mode: 'exact' }),
    ]);
    // Assess
    expect(asked.status).toBe(202);
    expect(execution).toMatchObject({ status: 'queued', answerer: 'extractive', reviewId: review.id });
    expect(again.body).toMatchObject({ idempotent: true, execution: { id: execution.id } });
    const types = events.map((event) => event.type);
    expect(types[0]).toBe('stream.ready');
    expect(types.slice(1, 3)).toEqual(['response.started', 'review.title.updated']);
    expect(types.filter((type) => type === 'response.completed' || type === 'response.error')).toEqual([
      'response.completed',
    ]);
    expect(types.at(-1)).toBe('response.completed');
    const sequences = events.map((event) => event.sequence);
    expect(sequences).toEqual([...sequences].sort((a, b) => a - b));
    expect(new Set(sequences).size).toBe(sequences.length);
    const tools = events.filter((event) => event.type.startsWith('tool.')).map((event) => event.payload);
    expect(tools[0]).toEqual({ name: 'search_sources', status: 'running', modes: ['exact', 'semantic'] });
    expect(tools[1]).toMatchObject({
      name: 'search_sources',
      status: 'completed',
      hitCount: expect.any(Number),
    });
    expect(tools[1].hitCount).toBeGreaterThan(0);
    expect(tools.at(-1)).toMatchObject({ name: 'review_sources', status: 'completed' });
    expect(events.some((event) => event.type === 'source.reviewed')).toBe(true);
    const text = events.at(-1)?.payload.text as string;
    const deltas = events
      .filter((event) => event.type === 'response.text.delta')
      .map((event) => event.payload.delta);
    expect(deltas.join('')).toBe(text);
    expect(text).toContain('General Contractor is responsible for all permit fees');
    // Every marker of the text has its citation, pointing at the addendum page that says it.
    const citations = events.filter((event) => event.type === 'citation').map((event) => event.payload);
    const markers = [...text.matchAll(/\[(\d+)\]/g)].map((match) => Number(match[1]));
    expect(markers.length).toBeGreaterThan(0);
    expect(citations.map((citation) => citation.marker).sort()).toEqual([...markers].sort());
    const permit = citations.find((citation) => citation.quote.includes('permit fees.'));
    expect(permit).toMatchObject({ fileName: 'addendum-02.pdf', pageNumber: 1 });
    expect(permit.sourceCatalogUri).toMatch(new RegExp(`^service://projects/${projectId}/`));
    // Polling gives the same answer and citations.
    expect(polled).toMatchObject({ status: 'succeeded', answer: text, error: null });
    expect(polled.citations).toEqual(citations);
    // reviewId narrows a search to the sources the review has read.
    const reviewed = new Set(
      events
        .filter((event) => event.type === 'source.reviewed')
        .map((event) => event.payload.sourceCatalogUri),
    );
    expect(inReview.body.hits.length).toBeGreaterThan(0);
    expect(
      inReview.body.hits.every((hit: { sourceCatalogUri: string }) => reviewed.has(hit.sourceCatalogUri)),
    ).toBe(true);
    expect(gypsumInReview.body.hits).toEqual([]);
    expect(gypsumAnywhere.body.hits.length).toBeGreaterThan(0);
    expect(reviewAfter).toMatchObject({
      title: 'Who pays the permit fees',
      executionCount: 1,
      lastExecution: { id: execution.id, status: 'succeeded' },
    });
  });

  it('resumes with `after` without a gap or a duplicate, and refuses what it should', async () => {
    // Prepare
    const review = (await create({ name: 'Resume' }, 'key-resume')).body.review;
    const execution = (
      await ask(review.id, { question: 'Which standard governs installing gypsum board panels?' }, 'ask-r')
    ).body.execution;
    const all = await stream(execution.streamUrl, org.apiKey, 'ndjson');
    const middle = all[Math.floor(all.length / 2)] as Event;
    // Act
    const resumed = await stream(execution.streamUrl, org.apiKey, 'ndjson', middle.sequence);
    const foreignStream = await fetch(`${apiUrl}${execution.streamUrl}`, {
      headers: { authorization: `Bearer ${other.apiKey}`, accept: 'text/event-stream' },
    });
    const foreignPoll = await api(execution.url, { key: other.apiKey });
    const noKey = await ask(review.id, { question: 'Anything?' });
    const badQuestion = await ask(review.id, { question: '' }, 'ask-bad');
    const unknownReview = await ask('rev_00000000000000000000000000', { question: 'Anything?' }, 'ask-x');
    // Assess
    expect(resumed[0]).toMatchObject({ type: 'stream.ready', sequence: middle.sequence + 1 });
    expect(resumed.slice(1)).toEqual(all.filter((event) => event.sequence > middle.sequence));
    expect(foreignStream.status).toBe(404);
    expect([foreignPoll.status, foreignPoll.body.error.code]).toEqual([404, 'project_not_found']);
    expect([noKey.status, noKey.body.error.code]).toEqual([400, 'idempotency_key_required']);
    expect(badQuestion.status).toBe(400);
    expect([unknownReview.status, unknownReview.body.error.code]).toEqual([404, 'open_api_review_not_found']);
  });

  it('answers every invalid review or question payload with invalid_review, a NUL or a line break in a name included', async () => {
    // Prepare
    const review = (await create({ name: 'Validation' }, 'key-validation')).body.review;
    const raw = (path: string, rawBody: string, key: string) =>
      api(path, {
        method: 'POST',
        key: org.apiKey,
        rawBody,
        headers: { 'content-type': 'application/json', 'idempotency-key': key },
      });
    // Act
    const replies = await Promise.all([
      create({ name: 'Bad\u0000name' }, 'key-nul'),
      create({ name: 'Two\nlines' }, 'key-newline'),
      create({ name: 5 }, 'key-number'),
      create({ name: 'Extra', colour: 'red' }, 'key-extra'),
      raw(reviews(), '{"name":', 'key-json'),
      ask(review.id, { question: '' }, 'ask-empty'),
      ask(review.id, { question: 'Anything?', entityTypes: ['nonsense'] }, 'ask-entity'),
      raw(`${reviews()}/${review.id}/executions`, 'not json', 'ask-json'),
    ]);
    // Assess
    expect(replies.map((reply) => [reply.status, reply.body.error.code])).toEqual(
      replies.map(() => [400, 'invalid_review']),
    );
  });

  it('goes on to its answer when the client disconnects, and starts no second execution on reconnect', async () => {
    // Prepare
    const review = (await create({ name: 'Disconnect' }, 'key-disconnect')).body.review;
    const execution = (await ask(review.id, { question: 'Who pays the permit fees?' }, 'ask-d')).body
      .execution;
    // Act: read the first event, then drop the connection.
    const controller = new AbortController();
    const response = await fetch(`${apiUrl}${execution.streamUrl}`, {
      headers: { authorization: `Bearer ${org.apiKey}`, accept: '*/*' },
      signal: controller.signal,
    });
    const first = await (response.body as ReadableStream<Uint8Array>).getReader().read();
    controller.abort();
    let polled = (await api(execution.url, { key: org.apiKey })).body.execution;
    for (let i = 0; i < 200 && (polled.status === 'queued' || polled.status === 'running'); i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      polled = (await api(execution.url, { key: org.apiKey })).body.execution;
    }
    const replay = await stream(execution.streamUrl, org.apiKey, 'ndjson');
    const reviewAfter = (await api(`${reviews()}/${review.id}`, { key: org.apiKey })).body.review;
    // Assess: Accept */* is SSE; the execution finished; one execution, one terminal event.
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    expect(new TextDecoder().decode(first.value)).toContain('event: stream.ready');
    expect(polled.status).toBe('succeeded');
    expect(replay.filter((event) => event.type === 'response.completed')).toHaveLength(1);
    expect(reviewAfter.executionCount).toBe(1);
  });

  it('cites a drawing region with its sheet, box and crop, announced by artifact.manifest and readable with the key', async () => {
    // Prepare
    const review = (await create({ name: 'Drawings' }, 'key-drawing')).body.review;
    // Act
    const execution = (
      await ask(
        review.id,
        { question: 'What do the general notes of sheet A-101 say about gypsum board?' },
        'ask-g',
      )
    ).body.execution;
    const events = await stream(execution.streamUrl, org.apiKey, 'ndjson');
    const region = events
      .filter((event) => event.type === 'citation')
      .map((event) => event.payload)
      .find((citation) => citation.source.type === 'region');
    const manifests = events
      .filter((event) => event.type === 'artifact.manifest')
      .map((event) => event.payload);
    // Assess
    expect(region).toMatchObject({ fileName: 'A-101.pdf', sheetNumber: 'A-101', pageNumber: 1 });
    expect(region.quote).toContain('09 29 00');
    expect(region.box).toEqual({
      left: expect.any(Number),
      top: expect.any(Number),
      right: expect.any(Number),
      bottom: expect.any(Number),
    });
    expect(region.artifact.type).toBe('region_crop');
    expect(manifests).toContainEqual({
      sourceCatalogUri: region.sourceCatalogUri,
      artifact: region.artifact,
    });
    const crop = await fetch(`${apiUrl}${region.artifact.url}`, {
      headers: { authorization: `Bearer ${org.apiKey}` },
    });
    expect(crop.status).toBe(200);
    expect(
      Buffer.from(await crop.arrayBuffer())
        .subarray(1, 4)
        .toString(),
    ).toBe('PNG');
  });

  it('ends an execution as its written terminal event says when the step that saves it failed after writing it', async () => {
    // Prepare: an answered execution whose record is put back to running (finish wrote the events
    // and failed before saving the record), as the state machine's catcher would then find it.
    const review = (await create({ name: 'Crash after completion' }, 'key-crash')).body.review;
    const execution = (await ask(review.id, { question: 'Who pays the permit fees?' }, 'ask-crash')).body
      .execution;
    const events = await stream(execution.streamUrl, org.apiKey, 'ndjson');
    await dynamo.send(
      new UpdateCommand({
        TableName: process.env.TABLE_NAME,
        Key: entities.reviewExecution.key(org.orgId, execution.id),
        UpdateExpression: 'SET #status = :running, answer = :none, citations = :empty',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':running': 'running', ':none': null, ':empty': [] },
      }),
    );
    // Act
    await failExecution(reviewWiring(), {
      orgId: org.orgId,
      executionId: execution.id,
      error: { Error: 'States.TaskFailed', Cause: 'connection reset' },
    });
    const polled = (await api(execution.url, { key: org.apiKey })).body.execution;
    const after = await stream(execution.streamUrl, org.apiKey, 'ndjson');
    // Assess
    expect(polled).toMatchObject({ status: 'succeeded', answer: events.at(-1)?.payload.text, error: null });
    expect(polled.citations).toEqual(
      events.filter((event) => event.type === 'citation').map((event) => event.payload),
    );
    expect(after.filter((event) => event.type === 'response.error')).toEqual([]);
  });

  it('streams heartbeat events while a step outlasts the interval, and response.error when an execution fails', async () => {
    // Prepare: two queued executions nothing runs; a turn that takes 2.5 s, with a 1 s heartbeat
    const review = (await create({ name: 'Event types' }, 'key-event-types')).body.review;
    const queued = async (question: string, key: string) =>
      (
        await askQuestion(
          {
            projects: projectStore(),
            reviews: reviewStore(),
            starter: { start: async () => undefined },
            answerer: 'extractive',
          },
          { orgId: org.orgId, projectId, reviewId: review.id, idempotencyKey: key, ask: { question } },
        )
      ).execution;
    const slow = await queued('Who pays the permit fees?', 'ask-slow');
    const failing = await queued('Which gypsum board is specified?', 'ask-failing');
    const deps = reviewWiring();
    const slowDeps = {
      reviews: deps.reviews,
      events: deps.events,
      conversations: deps.conversations,
      artifactPaths: deps.artifactPaths,
      settings: { heartbeatMs: 1_000, responseTargetMs: 20_000 },
      answerer: {
        kind: 'extractive' as const,
        deterministic: true,
        turn: async (_conversation: unknown, emit: (delta: string) => Promise<void>) => {
          await new Promise((resolve) => setTimeout(resolve, 2_500));
          await emit('The owner pays.');
          return { kind: 'answer' as const, answer: { text: 'The owner pays.', citations: [] } };
        },
      },
    };
    // Act: the steps the state machine runs, with the real event log
    const begun = await beginExecution(slowDeps, { orgId: org.orgId, executionId: slow.id });
    await finishExecution(slowDeps, await answerTurn(slowDeps, begun));
    await beginExecution(deps, { orgId: org.orgId, executionId: failing.id });
    await failExecution(deps, {
      orgId: org.orgId,
      executionId: failing.id,
      error: { Error: 'States.Timeout', Cause: 'internal detail' },
    });
    const slowEvents = await stream(slow.streamUrl, org.apiKey, 'sse');
    const failedEvents = await stream(failing.streamUrl, org.apiKey, 'ndjson');
    // Assess
    const types = slowEvents.map((event) => event.type);
    expect(types.filter((type) => type === 'heartbeat').length).toBeGreaterThanOrEqual(2);
    expect(types.indexOf('heartbeat')).toBeGreaterThan(types.indexOf('response.started'));
    expect(types.at(-1)).toBe('response.completed');
    expect(slowEvents.find((event) => event.type === 'heartbeat')?.payload).toEqual({
      status: 'running',
      intervalMs: 1_000,
    });
    expect(failedEvents.at(-1)).toMatchObject({
      type: 'response.error',
      payload: { code: 'review_execution_timed_out' },
    });
    expect(JSON.stringify(failedEvents)).not.toContain('internal detail');
  });

  it('says plainly when the documents do not answer, with no citation', async () => {
    // Prepare
    const review = (await create({ name: 'Unanswerable' }, 'key-none')).body.review;
    // Act
    const execution = (
      await ask(review.id, { question: 'What color is the owner’s helicopter?' }, 'ask-none')
    ).body.execution;
    const events = await stream(execution.streamUrl, org.apiKey, 'ndjson');
    const listed = (await api(reviews(), { key: org.apiKey })).body.reviews as { id: string }[];
    // Assess
    expect(events.at(-1)?.type).toBe('response.completed');
    expect(events.at(-1)?.payload.text).toMatch(/^I (found nothing|read \d+ sources?)/);
    expect(events.filter((event) => event.type === 'citation')).toEqual([]);
    expect(listed.map((entry) => entry.id)).toContain(review.id);
  });
});
