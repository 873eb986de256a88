import { z } from 'zod';
import { ErrorInfoSchema } from '../errors.ts';
import type { ENTITY_TYPES, EntityType } from '../search/sources.ts';

/**
 * Reviews (named conversations over a project's sources) and their executions (one question each,
 * answered by a durable state machine whose public events stream by sequence).
 */

export const REVIEW_LIMITS = {
  nameLength: 120,
  questionLength: 2_000,
  idempotencyKeyLength: 256,
  /** How long an Idempotency-Key is remembered (per organization). */
  idempotencyHours: 24,
  fileIds: 50,
  /** Sources a review remembers having read (what `reviewId` narrows a search to). */
  reviewedSources: 1_000,
} as const;

export const EXECUTION_STATUSES = ['queued', 'running', 'succeeded', 'partial', 'failed'] as const;
export type ExecutionStatus = (typeof EXECUTION_STATUSES)[number];
export const TERMINAL_EXECUTION_STATUSES: ReadonlySet<ExecutionStatus> = new Set([
  'succeeded',
  'partial',
  'failed',
]);

export const ANSWERERS = ['extractive', 'bedrock'] as const;
export type AnswererKind = (typeof ANSWERERS)[number];

export const ExecutionSummarySchema = z.object({
  id: z.string(),
  status: z.enum(EXECUTION_STATUSES),
  createdAt: z.string(),
});

export const ReviewSchema = z.object({
  id: z.string(),
  projectId: z.string(),
  name: z.string().describe('As given at creation (1 to 120 characters).'),
  title: z
    .string()
    .nullable()
    .describe('A public title made from the first question (null before it); see `review.title.updated`.'),
  status: z.enum(['active']),
  executionCount: z.number().int(),
  lastExecution: ExecutionSummarySchema.nullable(),
  url: z.string().describe('Path of this review.'),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Review = z.infer<typeof ReviewSchema>;

export interface ReviewRecord extends Omit<Review, 'url'> {
  orgId: string;
  /** The execution that gave the review its title. */
  titleExecutionId?: string;
  /** Sources its executions have read. */
  sourceUris?: Set<string>;
}

export const CitationSchema = z.object({
  marker: z.number().int().describe('The `[n]` marker of the answer text that points to this citation.'),
  sourceCatalogUri: z.string(),
  source: z.object({ type: z.string(), id: z.string(), label: z.string() }),
  documentId: z.string(),
  fileName: z.string(),
  pageNumber: z.number().int(),
  pageEnd: z.number().int(),
  sheetNumber: z.string().nullable(),
  sectionNumber: z.string().nullable(),
  quote: z.string().describe('The cited words, exactly as they are in the source.'),
  box: z
    .object({ left: z.number(), top: z.number(), right: z.number(), bottom: z.number() })
    .nullable()
    .describe('Regions: where on the page (PDF points from the top-left).'),
  artifact: z
    .object({ type: z.string(), url: z.string(), path: z.string(), readWith: z.string() })
    .nullable()
    .describe('The crop of a region or the PDF of a section, read with the bearer key (`artifacts:read`).'),
});
export type Citation = z.infer<typeof CitationSchema>;

export const ExecutionSchema = z.object({
  id: z.string(),
  reviewId: z.string(),
  projectId: z.string(),
  status: z
    .enum(EXECUTION_STATUSES)
    .describe(
      '`queued` (accepted), `running`, then `succeeded`, `partial` (the answer was cut short; its text is what was written) or `failed`.',
    ),
  question: z.string(),
  answerer: z
    .enum(ANSWERERS)
    .describe(
      '`extractive`: the answer is composed of sentences quoted from the sources (no language model); `bedrock`: written by a model that must cite.',
    ),
  answer: z.string().nullable().describe('The full answer once terminal (the `response.completed` text).'),
  citations: z.array(CitationSchema),
  error: ErrorInfoSchema.nullable(),
  streamUrl: z.string().describe('Path of the event stream (SSE or NDJSON).'),
  url: z.string().describe('Path of this execution (poll it when you cannot stream).'),
  createdAt: z.string(),
  startedAt: z.string().nullable(),
  completedAt: z.string().nullable(),
});
export type Execution = z.infer<typeof ExecutionSchema>;

export interface ExecutionFilters {
  entityTypes?: (typeof ENTITY_TYPES)[number][];
  fileIds?: string[];
}

export interface ExecutionRecord extends Omit<Execution, 'streamUrl' | 'url'> {
  orgId: string;
  filters: ExecutionFilters;
  /** The next free event sequence (allocated atomically, `ADD`). */
  nextSequence: number;
}

export const reviewPath = (projectId: string, reviewId: string) =>
  `/api/open/v1/projects/${projectId}/reviews/${reviewId}`;
export const executionPath = (projectId: string, reviewId: string, executionId: string) =>
  `${reviewPath(projectId, reviewId)}/executions/${executionId}`;

export function toPublicReview(record: ReviewRecord): Review {
  const { orgId: _org, titleExecutionId: _title, sourceUris: _sources, ...review } = record;
  return { ...review, url: reviewPath(record.projectId, record.id) };
}

export function toPublicExecution(record: ExecutionRecord): Execution {
  const path = executionPath(record.projectId, record.reviewId, record.id);
  return {
    id: record.id,
    reviewId: record.reviewId,
    projectId: record.projectId,
    status: record.status,
    question: record.question,
    answerer: record.answerer,
    answer: record.answer,
    citations: record.citations,
    error: record.error,
    streamUrl: `${path}/stream`,
    url: path,
    createdAt: record.createdAt,
    startedAt: record.startedAt,
    completedAt: record.completedAt,
  };
}

/** A question asked in a review, optionally narrowed to kinds of sources or to some files. */
export interface AskCommand {
  question: string;
  entityTypes?: EntityType[];
  fileIds?: string[];
}
