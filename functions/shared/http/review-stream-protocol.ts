import type { StreamEvent } from '../../core/reviews/stream.ts';
import { StreamError, StreamMediaTypeError } from './errors.ts';

/**
 * The review stream's protocol at the edge: the query a connection sends (`after`), the `Accept`
 * negotiation (SSE or NDJSON) and the framing of the events core hands over (`openStream`).
 */
export type StreamFormat = 'sse' | 'ndjson';

/** Query: only `after`, at most once, an integer >= -1. */
export function parseStreamQuery(rawQueryString: string): { after: number } {
  const params = new URLSearchParams(rawQueryString);
  const seen = new Set<string>();
  for (const key of params.keys()) {
    if (key !== 'after' || seen.has(key)) {
      throw new StreamError(
        'invalid_review_stream_query',
        `Unknown or duplicated query parameter "${key}"; only "after" is accepted, once.`,
      );
    }
    seen.add(key);
  }
  const raw = params.get('after');
  if (raw === null) return { after: -1 };
  if (!/^-?\d{1,15}$/.test(raw) || Number(raw) < -1) {
    throw new StreamError('invalid_review_stream_after', '"after" must be an integer of at least -1.');
  }
  return { after: Number(raw) };
}

/** Accept negotiation: SSE or NDJSON, in the client's order of preference; the any-type wildcard and `text` wildcard mean SSE, the `application` wildcard NDJSON. */
export function negotiateFormat(accept: string | undefined): StreamFormat {
  const ranked = (accept ?? '')
    .split(',')
    .map((part) => {
      const [type, ...params] = part.trim().toLowerCase().split(';');
      const quality = Number(params.find((param) => param.trim().startsWith('q='))?.split('=')[1] ?? 1);
      return { type: type?.trim() ?? '', quality: Number.isFinite(quality) ? quality : 0 };
    })
    .filter((entry) => entry.quality > 0)
    .sort((a, b) => b.quality - a.quality);
  for (const { type } of ranked) {
    // A wildcard takes the default, SSE (`application/*` the JSON form, NDJSON).
    if (type === 'text/event-stream' || type === '*/*' || type === 'text/*') return 'sse';
    if (type === 'application/x-ndjson' || type === 'application/*') return 'ndjson';
  }
  throw new StreamMediaTypeError(
    'review_stream_media_type_not_acceptable',
    'Accept must allow text/event-stream or application/x-ndjson.',
  );
}

export function frame(event: StreamEvent, format: StreamFormat): string {
  const json = JSON.stringify(event);
  return format === 'sse' ? `id: ${event.sequence}\nevent: ${event.type}\ndata: ${json}\n\n` : `${json}\n`;
}

/** Each batch of events as one chunk of frames (a replay of 1,000 events is one write). */
export async function* framed(
  batches: AsyncIterable<StreamEvent[]>,
  format: StreamFormat,
): AsyncGenerator<string> {
  for await (const batch of batches) yield batch.map((event) => frame(event, format)).join('');
}

export const CONTENT_TYPES: Record<StreamFormat, string> = {
  sse: 'text/event-stream; charset=utf-8',
  ndjson: 'application/x-ndjson; charset=utf-8',
};
