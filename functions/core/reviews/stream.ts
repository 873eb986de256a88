import { z } from 'zod';
import { DomainError, NotFoundError } from '../errors.ts';
import { isWellFormedId } from '../ids.ts';
import type { ExecutionStatus } from './model.ts';
import { publicEvent, publicPayload } from './public-events.ts';

/**
 * Review execution stream: the events of one execution, replayed after a cursor and followed until a
 * terminal event. Events are stored by sequence. How a connection asks for them (the query, the
 * `Accept` header) and how they are written (SSE or NDJSON frames) is the stream handler's
 * (`functions/shared/http/review-stream-protocol.ts`).
 */
export const STREAM_EVENT_TYPES = [
  'stream.ready',
  'response.started',
  'review.title.updated',
  'tool.started',
  'tool.completed',
  'response.text.delta',
  'source.reviewed',
  'citation',
  'artifact.manifest',
  'heartbeat',
  'response.completed',
  'response.error',
] as const;

export const TERMINAL_EVENT_TYPES = new Set(['response.completed', 'response.error']);

export const StreamEventSchema = z.object({
  version: z.literal(1),
  executionId: z.string(),
  sequence: z.number().int(),
  createdAt: z.string(),
  type: z.enum(STREAM_EVENT_TYPES),
  payload: z.record(z.string(), z.unknown()),
});
export type StreamEvent = z.infer<typeof StreamEventSchema>;

export class ReviewExecutionNotFoundError extends NotFoundError {
  constructor() {
    super('review_execution_not_found', 'No such execution in this project and review.');
  }
}

declare const ownershipChecked: unique symbol;

/** An execution read under its organization's key; its events are keyed by execution only. */
export interface OwnedExecution {
  id: string;
  projectId: string;
  reviewId: string;
  status: ExecutionStatus;
  readonly [ownershipChecked]: true;
}

/** Stored executions and their public events, by sequence. */
export interface ReviewEventLog {
  /** The execution, read under the organization's own key (null for another organization's id). */
  getExecution(orgId: string, executionId: string): Promise<OwnedExecution | null>;
  /** Up to `limit` events with a sequence greater than `after`, in order. */
  eventsAfter(execution: OwnedExecution, after: number, limit: number): Promise<StreamEvent[]>;
  /** The execution's last stored event (its terminal event once it ended), or null. */
  lastEvent(execution: OwnedExecution): Promise<StreamEvent | null>;
}

export class StreamUnavailableError extends DomainError {
  readonly code = 'review_stream_unavailable';
  constructor(cause: unknown) {
    super(
      'The event store is unavailable right now; reconnect with the same `after`, or poll the execution `url`.',
      { retryAfterSeconds: 2 },
      cause,
    );
  }
}

export class StreamInvalidResponseError extends DomainError {
  readonly code = 'review_stream_invalid_response';
  constructor(cause: unknown) {
    super(
      'The stored events could not be read as public events; poll the execution `url`.',
      undefined,
      cause,
    );
  }
}

/** A store failure is `review_stream_unavailable`; an event that does not pass the boundary, `review_stream_invalid_response`. */
async function guarded<T>(read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    if (error instanceof DomainError) throw error;
    throw new StreamUnavailableError(error);
  }
}

function publicOrInvalid(event: StreamEvent): StreamEvent {
  try {
    return publicEvent(event);
  } catch (error) {
    throw new StreamInvalidResponseError(error);
  }
}

/**
 * Find the execution a stream asks for.
 * Input: the caller's organization and the path's project, review and execution ids.
 * Output: the owned execution.
 * Steps: refuse malformed ids before any read; read the execution under the organization's key;
 * refuse one of another project or review. Every refusal is the same 404; a store failure is a 503.
 */
export async function findStreamExecution(
  deps: { events: ReviewEventLog },
  input: { orgId: string; projectId: string; reviewId: string; executionId: string },
): Promise<OwnedExecution> {
  const wellFormed =
    isWellFormedId('prj', input.projectId) &&
    isWellFormedId('rev', input.reviewId) &&
    isWellFormedId('exe', input.executionId);
  if (!wellFormed) throw new ReviewExecutionNotFoundError();
  const execution = await guarded(() => deps.events.getExecution(input.orgId, input.executionId));
  if (!execution || execution.projectId !== input.projectId || execution.reviewId !== input.reviewId) {
    throw new ReviewExecutionNotFoundError();
  }
  return execution;
}

export interface FollowOptions {
  after: number;
  /** Milliseconds the caller can still write for (the function's remaining time). */
  remainingMs: () => number;
  /** The wait before reading again once caught up; doubled after each read that finds nothing, up to maxPollMs. */
  pollMs: number;
  maxPollMs?: number;
  /** How to wait (tests record the waits instead). */
  sleep?: (ms: number) => Promise<void>;
  /** The interval of the execution's heartbeat events (announced in `stream.ready`). */
  heartbeatMs: number;
  /** Stop following this long before the time runs out. */
  reservedMs: number;
  /**
   * Whether the caller's key still holds, asked at most every `authorizationCheckMs` while the stream
   * follows: a revoked key ends the stream within that bound (the client's reconnect then gets 401).
   */
  stillAuthorized?: () => Promise<boolean>;
  authorizationCheckMs?: number;
}

/** Events read per query (a replay of 10,000 events is 10 reads) and written as one chunk. */
const BATCH = 1_000;
/** The first read is small: it happens before the first byte (stream.ready) is sent. */
const FIRST_BATCH = 10;

/**
 * Open a stream connection: read the first events now, so a store failure or an event that cannot
 * be made public is an error response (503, 502) rather than a broken stream; then the frames.
 */
export async function openStream(
  deps: { events: ReviewEventLog },
  execution: OwnedExecution,
  options: FollowOptions,
): Promise<AsyncGenerator<StreamEvent[]>> {
  let first = (await guarded(() => deps.events.eventsAfter(execution, options.after, FIRST_BATCH))).map(
    publicOrInvalid,
  );
  // A cursor at or past the end of an execution that ended: nothing will follow, so the stream ends
  // with the terminal event again (the client's rule is to read until one), not with silence.
  if (first.length === 0 && ENDED_STATUSES.has(execution.status)) {
    const last = await guarded(() => deps.events.lastEvent(execution));
    if (last && TERMINAL_EVENT_TYPES.has(last.type)) first = [publicOrInvalid(last)];
  }
  return followExecution(deps, execution, options, first);
}

const ENDED_STATUSES: ReadonlySet<ExecutionStatus> = new Set(['succeeded', 'partial', 'failed']);

/**
 * The sequence of a connection's `stream.ready`: greater than `after` and smaller than every event that
 * follows it. Stored events have odd sequences (the store allocates by twos), so after an event (or
 * -1) it is the even number after `after`. A cursor that is itself even is a `stream.ready`'s own (the
 * client resumed from one): no number lies between it and the next event, and it is repeated.
 */
export function readySequence(after: number): number {
  return after % 2 === 0 ? after : after + 1;
}

/**
 * The events of one connection, in the batches to write together: `stream.ready` (the connection's own opening event, never stored:
 * its sequence is the cursor it resumes after, 0 for a new stream, so every stored event after it
 * is greater), the stored events after `after`, then new ones as they are stored, until a terminal
 * event or the time runs out (the client reconnects with its last sequence). Every event is rebuilt
 * through the public-data boundary before it is sent. A store failure after the first byte ends the
 * stream without a terminal event: the client resumes with `after`. Stops as soon as the consumer
 * stops reading.
 */
export async function* followExecution(
  deps: { events: ReviewEventLog },
  execution: OwnedExecution,
  options: FollowOptions,
  first: StreamEvent[],
): AsyncGenerator<StreamEvent[]> {
  let cursor = options.after;
  yield [
    {
      version: 1,
      executionId: execution.id,
      sequence: readySequence(options.after),
      createdAt: new Date().toISOString(),
      type: 'stream.ready',
      payload: publicPayload('stream.ready', {
        executionId: execution.id,
        status: execution.status,
        after: options.after,
        heartbeatIntervalMs: options.heartbeatMs,
      }),
    },
  ];
  let batch = first;
  // Caught up, the stream reads again after pollMs; while nothing comes, the wait doubles up to
  // maxPollMs (an idle execution still writes a heartbeat every heartbeatMs); new events reset it.
  let wait = options.pollMs;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  let authorizedAt = Date.now();
  for (;;) {
    const chunk: StreamEvent[] = [];
    let ended = false;
    for (const stored of batch) {
      chunk.push(stored);
      cursor = Math.max(cursor, stored.sequence);
      if (TERMINAL_EVENT_TYPES.has(stored.type)) {
        ended = true;
        break;
      }
    }
    if (chunk.length > 0) yield chunk;
    if (ended) return;
    if (batch.length > 0) wait = options.pollMs;
    if (batch.length < (batch === first ? FIRST_BATCH : BATCH)) {
      if (options.remainingMs() < options.reservedMs) return;
      await sleep(wait);
      if (batch.length === 0) wait = Math.min(options.maxPollMs ?? options.pollMs, wait * 2);
    }
    if (options.stillAuthorized && Date.now() - authorizedAt >= (options.authorizationCheckMs ?? 5_000)) {
      if (!(await options.stillAuthorized().catch(() => true))) return;
      authorizedAt = Date.now();
    }
    try {
      batch = (await deps.events.eventsAfter(execution, cursor, BATCH)).map(publicEvent);
    } catch {
      return;
    }
  }
}
