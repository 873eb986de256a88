import type { DisplayBox } from '../../engine/model.ts';
import type { AnswererKind, ExecutionFilters } from './model.ts';

/**
 * The answerer port and the conversation an execution carries from step to step (in the state
 * machine's payload: durable, and bounded by `CONVERSATION_LIMITS`).
 */

export const CONVERSATION_LIMITS = {
  /** Sources one review_sources call reads. */
  sourcesPerReview: 6,
  /** Characters of a source kept for the answer (its passages, in order). */
  charactersPerSource: 6_000,
  /** Hits of a search kept. */
  hitsPerSearch: 10,
  /** Model turns before the answer is forced. */
  turns: 8,
} as const;

/** A tool the answerer asks for; `id` is the model's own id of the call, when it has one. */
export type ToolCall = { id?: string } & (
  | {
      name: 'search_sources';
      query: string;
      modes: ('exact' | 'semantic')[];
      /** Only files whose name holds this (case-insensitive), like a source search's `fileName` filter. */
      fileName?: string;
    }
  | { name: 'read_source'; sourceCatalogUri: string }
  | { name: 'review_sources'; sourceCatalogUris: string[] }
);

export interface SearchHitSummary {
  sourceCatalogUri: string;
  type: string;
  label: string;
  fileName: string;
  classification: string | null;
  pageNumber: number;
  score: number;
  /** The hit's confidence (0 to 1; under RELEVANCE_FLOOR a weak match, not an answer). */
  confidence: number;
  matchedModes: string[];
  snippet: string;
}

export interface ReviewedPassage {
  text: string;
  pageNumber: number;
  pageEnd: number;
  box: DisplayBox | null;
}

export interface ReviewedSource {
  sourceCatalogUri: string;
  source: { type: string; id: string; label: string };
  documentId: string;
  fileName: string;
  classification: string;
  pageStart: number;
  pageEnd: number;
  sheetNumber: string | null;
  /** Internal storage reference; becomes a public artifact URL only at the boundary. */
  artifact: { type: 'region_crop' | 'specification_file'; key: string } | null;
  passages: ReviewedPassage[];
}

export interface ToolResult {
  /** The turn that asked for it. */
  turn?: number;
  call: ToolCall;
  hits?: SearchHitSummary[];
  sources?: ReviewedSource[];
}

export interface DraftCitation {
  marker: number;
  sourceCatalogUri: string;
  quote: string;
}

export interface DraftAnswer {
  text: string;
  citations: DraftCitation[];
  /** Cut short (the model stream failed or hit its length limit): the text is what was written. */
  partial?: boolean;
}

export interface Conversation {
  question: string;
  filters: ExecutionFilters;
  turn: number;
  results: ToolResult[];
  answer?: DraftAnswer;
}

export type TurnResult = { kind: 'tools'; calls: ToolCall[] } | { kind: 'answer'; answer: DraftAnswer };

export interface Answerer {
  readonly kind: AnswererKind;
  /** The same conversation gives the same turn (a retried turn rewrites the same events). */
  readonly deterministic: boolean;
  /**
   * One turn: ask for tools, or write the answer (its text streamed through `emit` as it is written,
   * the same text returned whole with its citations). `final` means no more tools may be asked for.
   */
  turn(
    conversation: Conversation,
    emit: (delta: string) => Promise<void>,
    final: boolean,
  ): Promise<TurnResult>;
}

/** Every reviewed source of the conversation, by URI (the latest read wins). */
export function reviewedSources(conversation: Conversation): Map<string, ReviewedSource> {
  const sources = new Map<string, ReviewedSource>();
  for (const result of conversation.results)
    for (const source of result.sources ?? []) sources.set(source.sourceCatalogUri, source);
  return sources;
}
