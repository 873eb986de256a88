import type { ArtifactPaths } from '../content/artifacts.ts';
import { CONVERSATION_LIMITS, type Conversation, type ReviewedSource, reviewedSources } from './answerer.ts';
import {
  EventWriter,
  type ExecutionDeps,
  type ExecutionState,
  load,
  loadConversation,
  saveConversation,
  terminal,
  titleFrom,
} from './execution-steps.ts';
import type { Citation, ExecutionStatus } from './model.ts';
import { type EventPayload, publicError } from './public-events.ts';

export type { ExecutionDeps, ExecutionState } from './execution-steps.ts';
export { runTools } from './tools.ts';

/**
 * Begin: the execution becomes `running`; `response.started`; the review's title from its first
 * question (`review.title.updated`, once per review). Already terminal: nothing to do.
 */
export async function beginExecution(
  deps: ExecutionDeps,
  input: { orgId: string; executionId: string },
): Promise<ExecutionState> {
  const execution = await load(deps, input.orgId, input.executionId);
  const state: ExecutionState = { ...input, done: true, next: null, calls: [], conversationKey: null };
  if (terminal(execution.status)) return state;
  await deps.reviews.updateExecution(execution, ['queued'], {
    status: 'running',
    startedAt: new Date().toISOString(),
  });
  const writer = new EventWriter(deps, execution);
  await writer.emit(
    'response.started',
    { responseTargetMs: deps.settings.responseTargetMs },
    'begin:started',
  );
  const review = await deps.reviews.getReview(input.orgId, execution.reviewId);
  const title = titleFrom(execution.question);
  const titled =
    (await deps.reviews.setTitleOnce(input.orgId, execution.reviewId, title, execution.id)) ||
    (review as { titleExecutionId?: string } | null)?.titleExecutionId === execution.id;
  if (titled)
    await writer.emit('review.title.updated', { reviewId: execution.reviewId, title }, 'begin:title');
  const conversation = { question: execution.question, filters: execution.filters, turn: 0, results: [] };
  return {
    ...state,
    done: false,
    conversationKey: await saveConversation(deps, execution.id, 'begin', conversation),
  };
}

/** One turn of the answerer: tools to run next, or the answer (its text streamed as deltas). */
export async function answerTurn(deps: ExecutionDeps, state: ExecutionState): Promise<ExecutionState> {
  const execution = await load(deps, state.orgId, state.executionId);
  const conversation = await loadConversation(deps, state);
  const writer = new EventWriter(deps, execution);
  const finish = async (answer: NonNullable<Conversation['answer']>): Promise<ExecutionState> => ({
    ...state,
    next: 'finish',
    calls: [],
    conversationKey: await saveConversation(deps, execution.id, `turn${conversation.turn}-answer`, {
      ...conversation,
      answer,
    }),
  });
  const final = conversation.turn >= CONVERSATION_LIMITS.turns - 1;
  let delta = 0;
  const emit = async (text: string) => {
    if (text)
      await writer.emit('response.text.delta', { delta: text }, `turn${conversation.turn}:delta${delta++}`);
  };
  // A previous attempt of this turn already streamed text: a model is not asked again (its new text
  // would not match what clients have); the answer is what was streamed, marked partial.
  if (
    !deps.answerer.deterministic &&
    (await deps.events.hasEvent(execution.id, `turn${conversation.turn}:delta0`))
  ) {
    const streamed = (await deps.events.events(execution.id, -1))
      .filter((event) => event.type === 'response.text.delta')
      .map((event) => String(event.payload.delta))
      .join('');
    return finish({ text: streamed, citations: [], partial: true });
  }
  const result = await writer.during(() => deps.answerer.turn(conversation, emit, final));
  if (result.kind === 'tools' && !final && result.calls.length > 0)
    return { ...state, next: 'tools', calls: result.calls };
  const answer =
    result.kind === 'answer'
      ? result.answer
      : { text: 'The answer could not be completed within the allowed steps.', citations: [] };
  return finish(answer);
}

const sectionNumberOf = (source: ReviewedSource) =>
  source.source.type === 'specification' ? (source.source.label.split(' · ')[0] ?? null) : null;

/** The public citation of a draft one: the reviewed source, the passage that holds the quote. */
function citationOf(
  paths: ArtifactPaths | null,
  projectId: string,
  marker: number,
  source: ReviewedSource,
  quote: string,
): Citation {
  const flat = (text: string) => text.replace(/\s+/g, ' ');
  const passage =
    source.passages.find((candidate) => flat(candidate.text).includes(flat(quote))) ?? source.passages[0];
  return {
    marker,
    sourceCatalogUri: source.sourceCatalogUri,
    source: source.source,
    documentId: source.documentId,
    fileName: source.fileName,
    pageNumber: passage?.pageNumber ?? source.pageStart,
    pageEnd: passage?.pageEnd ?? source.pageEnd,
    sheetNumber: source.sheetNumber,
    sectionNumber: sectionNumberOf(source),
    quote,
    box: passage?.box ?? null,
    artifact:
      source.artifact && paths
        ? paths.projectReference(projectId, source.artifact.type, source.artifact.key)
        : null,
  };
}

/**
 * Finish: a `citation` event per cited source (markers that name no reviewed source are dropped), an
 * `artifact.manifest` per artifact, then `response.completed` with the canonical text; the execution
 * keeps the answer and citations for polling.
 */
export async function finishExecution(
  deps: ExecutionDeps,
  state: ExecutionState,
): Promise<{ status: ExecutionStatus }> {
  const execution = await load(deps, state.orgId, state.executionId);
  if (terminal(execution.status)) return { status: execution.status };
  const conversation = await loadConversation(deps, state);
  const answer = conversation.answer ?? { text: '', citations: [] };
  const sources = reviewedSources(conversation);
  const writer = new EventWriter(deps, execution);
  const cited = answer.citations.flatMap((draft) => {
    const source = sources.get(draft.sourceCatalogUri);
    return source ? [{ draft, source }] : [];
  });
  // Signed artifact paths need the signing key: fetched only when a cited source has an artifact.
  const paths = cited.some(({ source }) => source.artifact) ? await deps.artifactPaths() : null;
  const citations: Citation[] = cited.map(({ draft, source }) =>
    citationOf(paths, execution.projectId, draft.marker, source, draft.quote),
  );
  const status: ExecutionStatus = answer.partial ? 'partial' : 'succeeded';
  await writer.during(async () => {
    for (const citation of citations)
      await writer.emit('citation', citation, `finish:citation:${citation.marker}`);
    const artifacts = new Map(
      citations.flatMap((citation) =>
        citation.artifact
          ? [
              [
                citation.artifact.path,
                { sourceCatalogUri: citation.sourceCatalogUri, artifact: citation.artifact },
              ] as const,
            ]
          : [],
      ),
    );
    for (const [path, manifest] of artifacts)
      await writer.emit(
        'artifact.manifest',
        manifest as EventPayload<'artifact.manifest'>,
        `finish:artifact:${manifest.sourceCatalogUri}:${path.slice(0, 40)}`,
      );
    await writer.emit('response.completed', { text: answer.text, status }, 'finish:completed');
  });
  await deps.reviews.updateExecution(execution, ['queued', 'running'], {
    status,
    answer: answer.text,
    citations,
    completedAt: new Date().toISOString(),
  });
  return { status };
}

/** Errors of the orchestrator and of our steps, by the name Step Functions reports, as public codes. */
const ERROR_CODES: Record<string, string> = {
  'States.Timeout': 'review_execution_timed_out',
  SourceIndexNotReadyError: 'source_index_not_ready',
  ThrottlingException: 'review_answerer_unavailable',
  ServiceUnavailableException: 'review_answerer_unavailable',
};

/**
 * Fail: `response.error` (a public code, never the internal detail), the execution `failed`; unless
 * `response.completed` was already written, which then decides how the execution ended.
 */
export async function failExecution(
  deps: ExecutionDeps,
  input: { orgId: string; executionId: string; error?: { Error?: string; Cause?: string } },
): Promise<{ status: ExecutionStatus }> {
  const execution = await load(deps, input.orgId, input.executionId);
  if (terminal(execution.status)) return { status: execution.status };
  // The terminal event was written before the failure (finish stopped before saving the record):
  // the execution ended as that event says, with the answer and citations clients received.
  if (await deps.events.hasEvent(execution.id, 'finish:completed')) {
    const events = await deps.events.events(execution.id, -1);
    const completed = events.find((event) => event.type === 'response.completed');
    const status = completed?.payload.status === 'partial' ? 'partial' : 'succeeded';
    await deps.reviews.updateExecution(execution, ['queued', 'running'], {
      status,
      answer: String(completed?.payload.text ?? ''),
      citations: events
        .filter((event) => event.type === 'citation')
        .map((event) => event.payload as Citation),
      completedAt: completed?.createdAt ?? new Date().toISOString(),
    });
    return { status };
  }
  const error = publicError({ code: ERROR_CODES[input.error?.Error ?? ''] });
  const writer = new EventWriter(deps, execution);
  await writer.emit('response.error', error, 'fail:error');
  await deps.reviews.updateExecution(execution, ['queued', 'running'], {
    status: 'failed',
    error: { code: error.code, message: error.message },
    completedAt: new Date().toISOString(),
  });
  return { status: 'failed' };
}
