import type { Page } from '../pagination/page.ts';
import type { ExecutionRecord, ReviewRecord } from './model.ts';
import type { StreamEvent } from './stream.ts';

/** What an Idempotency-Key remembers: which request it was used for and what it made. */
export interface IdempotencyRecord {
  requestHash: string;
  resourceId: string;
}

export type CreateOutcome = { created: true } | { created: false; existing: IdempotencyRecord };

export interface ReviewStore {
  /**
   * Creates the review and remembers the key, in one transaction; when the key is already
   * remembered (an earlier or concurrent request), nothing is written and the remembered request is
   * returned.
   */
  createReview(review: ReviewRecord, idempotency: IdempotencyKeyed): Promise<CreateOutcome>;
  /** The review, read under the organization's own key (null for another organization's id). */
  getReview(orgId: string, reviewId: string): Promise<ReviewRecord | null>;
  listReviews(
    orgId: string,
    projectId: string,
    options: { limit: number; position: unknown | null },
  ): Promise<Page<ReviewRecord>>;
  /**
   * Creates the execution, counts it on its review and remembers the key, in one transaction (same
   * outcome rules as createReview).
   */
  createExecution(execution: ExecutionRecord, idempotency: IdempotencyKeyed): Promise<CreateOutcome>;
  getExecution(orgId: string, executionId: string): Promise<ExecutionRecord | null>;
  /** Changes the execution (and its summary on the review) when its status is one of `from`. */
  updateExecution(
    execution: Pick<ExecutionRecord, 'orgId' | 'id' | 'reviewId'>,
    from: ExecutionRecord['status'][],
    changes: Partial<ExecutionRecord>,
  ): Promise<boolean>;
  /** Remembers sources an execution of the review has read (up to REVIEW_LIMITS.reviewedSources). */
  addReviewedSources(orgId: string, reviewId: string, sourceUris: string[]): Promise<void>;
  /** Sets the review's public title once (the first question's); false when it already has one. */
  setTitleOnce(orgId: string, reviewId: string, title: string, executionId: string): Promise<boolean>;
}

export interface IdempotencyKeyed {
  orgId: string;
  /** The operation the key was used for (`createReview`, `ask:{reviewId}`). */
  scope: string;
  key: string;
  requestHash: string;
  expiresAtEpoch: number;
}

/** Appends the public events of one execution. */
export interface ExecutionEventLog {
  /**
   * Stores an event under the next free sequence (allocated atomically). With `eventKey`, the event
   * is stored once: a retried step that writes the same key again gets `null` and nothing is
   * written.
   */
  append(
    execution: Pick<ExecutionRecord, 'orgId' | 'id'>,
    event: Omit<StreamEvent, 'sequence'>,
    eventKey: string | null,
  ): Promise<number | null>;
  /** Whether an event with this key was stored. */
  hasEvent(executionId: string, eventKey: string): Promise<boolean>;
  /** Stored events of the execution after `after` (every one, in order). */
  events(executionId: string, after: number): Promise<StreamEvent[]>;
}

export interface ExecutionStarter {
  start(orgId: string, executionId: string): Promise<void>;
}
