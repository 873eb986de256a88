import { describe, expect, it } from 'vitest';
import {
  type OwnedExecution,
  openStream,
  type ReviewEventLog,
  StreamInvalidResponseError,
  StreamUnavailableError,
} from '../../../functions/core/reviews/stream.ts';
import {
  frame,
  framed,
  negotiateFormat,
  parseStreamQuery,
} from '../../../functions/shared/http/review-stream-protocol.ts';

describe('review stream request parsing', () => {
  it('accepts after >= -1 and defaults to -1', () => {
    expect(parseStreamQuery('')).toEqual({ after: -1 });
    expect(parseStreamQuery('after=-1')).toEqual({ after: -1 });
    expect(parseStreamQuery('after=42')).toEqual({ after: 42 });
  });

  it.each(['after=-2', 'after=1.5', 'after=abc', 'after='])('refuses %s', (query) => {
    expect(() => parseStreamQuery(query)).toThrow(
      expect.objectContaining({ code: 'invalid_review_stream_after' }),
    );
  });

  it.each(['after=1&after=2', 'foo=1', 'after=1&x=2'])(
    'refuses unknown or duplicated parameters: %s',
    (query) => {
      expect(() => parseStreamQuery(query)).toThrow(
        expect.objectContaining({ code: 'invalid_review_stream_query' }),
      );
    },
  );

  it('negotiates SSE or NDJSON by preference and refuses anything else', () => {
    expect(negotiateFormat('text/event-stream')).toBe('sse');
    expect(negotiateFormat('application/x-ndjson')).toBe('ndjson');
    expect(negotiateFormat('text/event-stream;q=0.5, application/x-ndjson')).toBe('ndjson');
    expect(negotiateFormat('*/*')).toBe('sse');
    expect(negotiateFormat('application/*')).toBe('ndjson');
    expect(negotiateFormat('application/json, */*;q=0.1')).toBe('sse');
    for (const accept of [undefined, 'application/json', '*/*;q=0', 'text/event-stream;q=0']) {
      expect(() => negotiateFormat(accept)).toThrow(
        expect.objectContaining({ code: 'review_stream_media_type_not_acceptable' }),
      );
    }
  });

  it('frames SSE messages with id, event and data, and NDJSON as one line', () => {
    const event = {
      version: 1 as const,
      executionId: 'exe_1',
      sequence: 7,
      createdAt: '2026-01-01T00:00:00.000Z',
      type: 'response.text.delta' as const,
      payload: { delta: 'Hi' },
    };
    expect(frame(event, 'sse')).toBe(`id: 7\nevent: response.text.delta\ndata: ${JSON.stringify(event)}\n\n`);
    expect(frame(event, 'ndjson')).toBe(`${JSON.stringify(event)}\n`);
  });
});

/** The execution the stream tests follow (their event logs stand in for the store). */
const execution = {
  id: 'exe_1',
  projectId: 'prj_1',
  reviewId: 'rev_1',
  status: 'running',
} as OwnedExecution;

/**
 * The store failing is not something DynamoDB Local can be made to do on demand: these use an event
 * log that fails as a store would (the integration tests run the same code on the real one).
 */
describe('review stream opening when the store fails', () => {
  const options = {
    after: -1,
    remainingMs: () => 60_000,
    pollMs: 1,
    heartbeatMs: 10_000,
    reservedMs: 5_000,
  };
  const log = (eventsAfter: ReviewEventLog['eventsAfter']): { events: ReviewEventLog } => ({
    events: { getExecution: async () => execution, eventsAfter, lastEvent: async () => null },
  });

  it('answers 503 review_stream_unavailable before the first byte when the store cannot be read', async () => {
    const failing = log(async () => {
      throw Object.assign(new Error('Service unavailable'), { name: 'InternalServerError' });
    });
    await expect(openStream(failing, execution, options)).rejects.toBeInstanceOf(StreamUnavailableError);
  });

  it('answers 502 review_stream_invalid_response when a stored event does not pass the boundary', async () => {
    const invalid = log(async () => [
      {
        version: 1,
        executionId: 'exe_1',
        sequence: 1,
        createdAt: '2026-01-01T00:00:00.000Z',
        type: 'response.text.delta',
        payload: { notADelta: true },
      },
    ]);
    await expect(openStream(invalid, execution, options)).rejects.toBeInstanceOf(StreamInvalidResponseError);
  });

  it('ends a started stream without a terminal event when the store fails later (the client resumes with after)', async () => {
    let reads = 0;
    const later = log(async () => {
      reads++;
      if (reads > 1) throw new Error('connection reset');
      return [];
    });
    const frames: string[] = [];
    for await (const chunk of framed(await openStream(later, execution, options), 'ndjson'))
      frames.push(chunk);
    expect(frames).toHaveLength(1);
    expect(JSON.parse(frames[0] as string).type).toBe('stream.ready');
  });
});

describe('review stream following', () => {
  it('reads again sooner while events come and less often while none do, within the heartbeat interval', async () => {
    // Prepare: nothing for three reads, one event, nothing for two reads, then the terminal event.
    const event = (sequence: number, type: 'response.text.delta' | 'response.completed') => ({
      version: 1 as const,
      executionId: 'exe_1',
      sequence,
      createdAt: '2026-01-01T00:00:00.000Z',
      type,
      payload: type === 'response.text.delta' ? { delta: 'Hi' } : { text: 'Hi', status: 'succeeded' },
    });
    const script = [[], [], [], [event(1, 'response.text.delta')], [], [], [event(2, 'response.completed')]];
    let read = 0;
    const waits: number[] = [];
    const events: ReviewEventLog = {
      getExecution: async () => execution,
      eventsAfter: async () => (script[read++] ?? []) as never,
      lastEvent: async () => null,
    };
    // Act
    const frames: string[] = [];
    const stream = await openStream({ events }, execution, {
      after: -1,
      remainingMs: () => 60_000,
      pollMs: 250,
      maxPollMs: 1_000,
      sleep: async (ms) => void waits.push(ms),
      heartbeatMs: 10_000,
      reservedMs: 5_000,
    });
    for await (const chunk of framed(stream, 'ndjson')) frames.push(chunk);
    // Assess
    expect(waits).toEqual([250, 500, 1_000, 250, 250, 500]);
    expect(frames.map((chunk) => JSON.parse(chunk).type)).toEqual([
      'stream.ready',
      'response.text.delta',
      'response.completed',
    ]);
  });
});
