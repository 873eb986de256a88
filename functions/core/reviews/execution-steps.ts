import type { ArtifactPaths } from '../content/artifacts.ts';
import type { SourceSearchResponse } from '../search/model.ts';
import type { Passage } from '../search/sources.ts';
import { objectKeys } from '../storage-keys.ts';
import type { Answerer, Conversation, ToolCall } from './answerer.ts';
import { type ExecutionRecord, type ExecutionStatus, TERMINAL_EXECUTION_STATUSES } from './model.ts';
import type { ExecutionEventLog, ReviewStore } from './ports.ts';
import { type EventPayload, type EventType, publicPayload } from './public-events.ts';

/**
 * The steps of a review execution (each one task of `stepfunctions/review-execution.asl.json`):
 * begin, then turns of the answerer and the tools it asks for, then finish (citations, completion),
 * or fail. Every public event goes through the public-data boundary and the one event log; an event
 * a step writes has a key, so a retried step never writes it twice; heartbeats (no key) are written
 * every `heartbeatMs` while a step runs.
 */

export interface ExecutionTools {
  search(input: {
    query: string;
    modes: ('exact' | 'semantic')[];
    filters: Conversation['filters'];
    fileName?: string;
    maxHits: number;
  }): Promise<SourceSearchResponse>;
  /** The passages of a source of the execution's project, in order (empty when there is none). */
  passages(sourceCatalogUri: string): Promise<Passage[]>;
}

/**
 * What the execution's steps use. Each step touches a part of it (begin and fail: the store and the
 * log; a turn: the answerer; finish: the artifact paths), and its function is configured for that part only.
 */
export interface ExecutionDeps {
  readonly reviews: ReviewStore;
  /** Where the conversation lives between steps (the artifacts bucket's scratch). */
  readonly conversations: ConversationStore;
  readonly events: ExecutionEventLog;
  readonly answerer: Answerer;
  /** Signs artifact paths with the service's key (fetched on first use). */
  artifactPaths(): Promise<ArtifactPaths>;
  settings: { heartbeatMs: number; responseTargetMs: number };
}

/** The tools step's deps: the tools of one project, bound to the execution's organization and project. */
export interface ToolDeps extends ExecutionDeps {
  tools(execution: ExecutionRecord): ExecutionTools;
}

/** JSON objects by key: the steps keep the conversation there. */
export interface ConversationStore {
  getJson<T>(key: string): Promise<T | null>;
  putJson(key: string, value: unknown): Promise<void>;
}

/**
 * What the state machine carries between steps: ids, the next step, the tool calls (a few short
 * queries), and the key of the conversation, never the conversation itself. Every tool result rides in
 * the conversation, and Step Functions fails an execution whose state passes 256 KB
 * (`States.DataLimitExceeded`, which no Catch sees).
 */
export interface ExecutionState {
  orgId: string;
  executionId: string;
  /** True when the execution was already terminal: the state machine ends. */
  done: boolean;
  next: 'tools' | 'finish' | null;
  calls: ToolCall[];
  conversationKey: string | null;
}

/**
 * Saves the conversation as one step left it, under a key of its own (a retried step writes the same
 * key again; the step before it is never overwritten), and returns that key for the state.
 */
export async function saveConversation(
  deps: ExecutionDeps,
  executionId: string,
  step: string,
  conversation: Conversation,
): Promise<string> {
  const key = objectKeys.reviewConversation(executionId, step);
  await deps.conversations.putJson(key, conversation);
  return key;
}

export async function loadConversation(deps: ExecutionDeps, state: ExecutionState): Promise<Conversation> {
  const conversation = state.conversationKey
    ? await deps.conversations.getJson<Conversation>(state.conversationKey)
    : null;
  if (!conversation) throw new Error(`Execution ${state.executionId} has no saved conversation`);
  return conversation;
}

/** Serialized appends (a heartbeat never takes a sequence between two writes of a step), heartbeats while a step runs. */
export class EventWriter {
  private tail: Promise<unknown> = Promise.resolve();
  private timer: NodeJS.Timeout | undefined;

  private readonly deps: ExecutionDeps;
  private readonly execution: ExecutionRecord;

  constructor(deps: ExecutionDeps, execution: ExecutionRecord) {
    this.deps = deps;
    this.execution = execution;
  }

  emit<T extends EventType>(type: T, payload: EventPayload<T>, key: string | null): Promise<number | null> {
    const event = {
      version: 1 as const,
      executionId: this.execution.id,
      createdAt: new Date().toISOString(),
      type,
      payload: publicPayload(type, payload),
    };
    const write = this.tail.then(() => this.deps.events.append(this.execution, event, key));
    this.tail = write.catch(() => undefined);
    return write;
  }

  async during<T>(step: () => Promise<T>): Promise<T> {
    const intervalMs = this.deps.settings.heartbeatMs;
    this.timer = setInterval(() => {
      this.emit('heartbeat', { status: 'running', intervalMs }, null).catch(() => undefined);
    }, intervalMs);
    try {
      return await step();
    } finally {
      clearInterval(this.timer);
      await this.tail;
    }
  }
}

export async function load(
  deps: ExecutionDeps,
  orgId: string,
  executionId: string,
): Promise<ExecutionRecord> {
  const execution = await deps.reviews.getExecution(orgId, executionId);
  if (!execution) throw new Error(`Execution ${executionId} does not exist`);
  return execution;
}

export const terminal = (status: ExecutionStatus) => TERMINAL_EXECUTION_STATUSES.has(status);

/** A public title from the first question: its first words, at most 80 characters. */
export function titleFrom(question: string): string {
  const flat = question
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/[?.!\s]+$/, '');
  if (flat.length <= 80) return flat.charAt(0).toUpperCase() + flat.slice(1);
  const cut = flat.slice(0, 80);
  const words = cut.slice(0, Math.max(cut.lastIndexOf(' '), 40));
  return `${words.charAt(0).toUpperCase()}${words.slice(1)}…`;
}
