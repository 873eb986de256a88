import { describe, expect, it } from 'vitest';
import { frame, negotiateFormat, parseStreamQuery } from '../../../functions/core/reviews/stream.ts';

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
