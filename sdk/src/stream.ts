import { PsaApiError, PsaStreamError } from './errors.ts';
import { backoffMs, DEFAULT_RETRY, retryAfterMs, sleep } from './retry.ts';
import type { ReviewCitation } from './types.ts';

type Base<T extends string, P> = {
  version: 1;
  executionId: string;
  sequence: number;
  createdAt: string;
  type: T;
  payload: P;
};
type ToolPayload = {
  name: 'search_sources' | 'read_source' | 'review_sources';
  status: 'running' | 'completed';
  modes?: ('exact' | 'semantic')[];
  hitCount?: number;
  sourceCount?: number;
  pageCount?: number;
  continuationCount?: number;
};
type ExecutionStatus = 'queued' | 'running' | 'succeeded' | 'partial' | 'failed';

/**
 * The public events of a review execution. The OpenAPI document types `payload` as an open object, so
 * the payloads here follow docs/decisions.md ("Review stream"); unknown fields may be added.
 */
export type ReviewStreamEvent =
  | Base<
      'stream.ready',
      { executionId: string; status: ExecutionStatus; after: number; heartbeatIntervalMs: number }
    >
  | Base<'response.started', { responseTargetMs: number }>
  | Base<'review.title.updated', { reviewId: string; title: string }>
  | Base<'tool.started' | 'tool.completed', ToolPayload>
  | Base<'response.text.delta', { delta: string }>
  | Base<
      'source.reviewed',
      {
        sourceCatalogUri: string;
        source: { type: string; id: string; label: string };
        fileName: string;
        pageNumber: number;
        pageEnd: number;
        sheetNumber: string | null;
      }
    >
  | Base<'citation', ReviewCitation>
  | Base<
      'artifact.manifest',
      { sourceCatalogUri: string; artifact: { type: string; url: string; path: string; readWith: string } }
    >
  | Base<'heartbeat', { status: ExecutionStatus; intervalMs: number }>
  | Base<'response.completed', { text: string; status: 'succeeded' | 'partial' }>
  | Base<'response.error', { code: string; message: string; retryable: boolean }>;

export const TERMINAL_EVENTS = new Set(['response.completed', 'response.error']);

export interface StreamOptions {
  /** Resume after this sequence (default -1: from the start). */
  after?: number;
  signal?: AbortSignal;
  /** Reconnections in a row that bring no new event before giving up (default 8). */
  maxReconnects?: number;
  /** Called before each reconnection (logging, tests). */
  onReconnect?: (info: { after: number; reason: string }) => void;
}

interface Transport {
  baseUrl: string;
  authorization: string;
  fetch: typeof fetch;
}

const STREAM_PATH = /^\/api\/open\/v1\/projects\/[^/?#]+\/reviews\/[^/?#]+\/executions\/[^/?#]+\/stream$/;

/** One NDJSON line as an event, or an error: the bytes come from the network. */
function parseEvent(line: string): ReviewStreamEvent {
  const value = JSON.parse(line) as Partial<ReviewStreamEvent> | null;
  if (
    !value ||
    typeof value !== 'object' ||
    typeof value.type !== 'string' ||
    !Number.isInteger(value.sequence) ||
    typeof value.payload !== 'object' ||
    value.payload === null
  ) {
    throw new PsaStreamError(`Not a review stream event: ${line.slice(0, 200)}`);
  }
  return value as ReviewStreamEvent;
}

async function* lines(body: ReadableStream<Uint8Array>): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  let buffered = '';
  for await (const chunk of body) {
    buffered += decoder.decode(chunk, { stream: true });
    let newline = buffered.indexOf('\n');
    while (newline >= 0) {
      const line = buffered.slice(0, newline).trim();
      buffered = buffered.slice(newline + 1);
      if (line) yield line;
      newline = buffered.indexOf('\n');
    }
  }
  const rest = (buffered + decoder.decode()).trim();
  if (rest) yield rest;
}

/**
 * The events of one execution, read as NDJSON. A dropped connection, a body that ends before the
 * terminal event, a 502/503 (`review_stream_unavailable`) or a 429 reconnects with `after` set to the
 * last sequence received: no gap, no duplicate, no second execution. Ends after `response.completed`
 * or `response.error`. Every connection opens with its own `stream.ready`, which is yielded too.
 */
export async function* streamExecution(
  transport: Transport,
  streamUrl: string,
  options: StreamOptions = {},
): AsyncGenerator<ReviewStreamEvent> {
  if (!STREAM_PATH.test(streamUrl)) throw new Error(`Not a review stream path: ${streamUrl.slice(0, 200)}`);
  let after = options.after ?? -1;
  const maxReconnects = options.maxReconnects ?? 8;
  let failures = 0;
  for (;;) {
    let reason: string;
    let waitMs: number | null = null;
    try {
      const response = await transport.fetch(`${transport.baseUrl}${streamUrl}?after=${after}`, {
        headers: { authorization: transport.authorization, accept: 'application/x-ndjson' },
        signal: options.signal ?? null,
      });
      if (response.status === 502 || response.status === 503 || response.status === 429) {
        reason = `HTTP ${response.status}`;
        waitMs = retryAfterMs(response.headers.get('retry-after'));
        await response.body?.cancel();
      } else if (!response.ok || !response.body) {
        throw PsaApiError.from(response, await response.json().catch(() => null));
      } else {
        for await (const line of lines(response.body)) {
          const event = parseEvent(line);
          if (event.type !== 'stream.ready') {
            if (event.sequence <= after) continue; // never yield an event twice
            after = event.sequence;
            failures = 0;
          }
          yield event;
          if (TERMINAL_EVENTS.has(event.type)) return;
        }
        reason = 'the stream ended before its terminal event';
      }
    } catch (error) {
      if (error instanceof PsaApiError || error instanceof PsaStreamError || options.signal?.aborted)
        throw error;
      reason = `connection lost (${(error as Error).message})`;
    }
    failures += 1;
    if (failures > maxReconnects) {
      throw new PsaStreamError(
        `The review stream could not be resumed after ${maxReconnects} attempts: ${reason}.`,
      );
    }
    options.onReconnect?.({ after, reason });
    await sleep(waitMs ?? backoffMs(failures - 1, { ...DEFAULT_RETRY, baseDelayMs: 250 }), options.signal);
  }
}
