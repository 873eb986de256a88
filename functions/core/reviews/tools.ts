import type { Passage } from '../search/sources.ts';
import {
  CONVERSATION_LIMITS,
  type Conversation,
  type ReviewedSource,
  type ToolCall,
  type ToolResult,
} from './answerer.ts';
import {
  EventWriter,
  type ExecutionState,
  type ExecutionTools,
  load,
  loadConversation,
  saveConversation,
  type ToolDeps,
} from './execution-steps.ts';
import type { ExecutionRecord } from './model.ts';

function sourceOf(passages: Passage[]): ReviewedSource | null {
  const first = passages[0];
  if (!first) return null;
  let characters = 0;
  const kept = passages.filter((passage) => {
    characters += passage.text.length;
    return characters <= CONVERSATION_LIMITS.charactersPerSource || passage === first;
  });
  return {
    sourceCatalogUri: first.sourceUri,
    source: { type: first.entityType, id: first.sourceId, label: first.label },
    documentId: first.documentId,
    fileName: first.fileName,
    classification: first.classification,
    pageStart: Math.min(...passages.map((passage) => passage.pageNumber)),
    pageEnd: Math.max(...passages.map((passage) => passage.pageEnd)),
    sheetNumber: first.sheetNumber || null,
    artifact: first.artifact,
    passages: kept.map((passage) => ({
      text: passage.text,
      pageNumber: passage.pageNumber,
      pageEnd: passage.pageEnd,
      box: passage.box,
    })),
  };
}

/** Run the tools the answerer asked for: `tool.started`, the work, `source.reviewed` per source read, `tool.completed`. */
export async function runTools(deps: ToolDeps, state: ExecutionState): Promise<ExecutionState> {
  const execution = await load(deps, state.orgId, state.executionId);
  const conversation = await loadConversation(deps, state);
  const run: ToolRun = {
    deps,
    execution,
    tools: deps.tools(execution),
    writer: new EventWriter(deps, execution),
    conversation,
  };
  const results: ToolResult[] = await run.writer.during(async () => {
    const out: ToolResult[] = [];
    for (const [index, call] of state.calls.entries()) {
      const key = `turn${conversation.turn}:tool${index}`;
      await run.writer.emit(
        'tool.started',
        { name: call.name, status: 'running', ...startPayload(call) },
        `${key}:started`,
      );
      out.push(call.name === 'search_sources' ? await search(run, call, key) : await review(run, call, key));
    }
    return out;
  });
  return {
    ...state,
    next: null,
    calls: [],
    conversationKey: await saveConversation(deps, execution.id, `turn${conversation.turn}-tools`, {
      ...conversation,
      turn: conversation.turn + 1,
      results: [...conversation.results, ...results],
    }),
  };
}

/** What one step's tool calls share. */
interface ToolRun {
  deps: ToolDeps;
  execution: ExecutionRecord;
  tools: ExecutionTools;
  writer: EventWriter;
  conversation: Conversation;
}

/** A search of the project's sources, within the review's filters. */
async function search(
  run: ToolRun,
  call: Extract<ToolCall, { name: 'search_sources' }>,
  key: string,
): Promise<ToolResult> {
  const response = await run.tools.search({
    query: call.query,
    modes: call.modes,
    filters: run.conversation.filters,
    ...(call.fileName ? { fileName: call.fileName } : {}),
    maxHits: CONVERSATION_LIMITS.hitsPerSearch,
  });
  const hits = response.hits.map((hit) => ({
    sourceCatalogUri: hit.sourceCatalogUri,
    type: hit.source.type,
    label: hit.source.label,
    fileName: hit.location.fileName,
    classification: null,
    pageNumber: hit.location.pageNumber,
    score: hit.score,
    confidence: hit.confidence,
    matchedModes: hit.matchedModes,
    snippet: hit.snippet,
  }));
  await run.writer.emit(
    'tool.completed',
    {
      name: call.name,
      status: 'completed',
      modes: call.modes,
      hitCount: hits.length,
      sourceCount: new Set(hits.map((hit) => hit.sourceCatalogUri)).size,
    },
    `${key}:completed`,
  );
  return { turn: run.conversation.turn, call, hits };
}

/** Sources read (`read_source`, `review_sources`): each announced, and remembered as the review's. */
async function review(
  run: ToolRun,
  call: Exclude<ToolCall, { name: 'search_sources' }>,
  key: string,
): Promise<ToolResult> {
  const uris = (call.name === 'read_source' ? [call.sourceCatalogUri] : call.sourceCatalogUris).slice(
    0,
    CONVERSATION_LIMITS.sourcesPerReview,
  );
  const sources: ReviewedSource[] = [];
  for (const uri of uris) {
    const source = sourceOf(await run.tools.passages(uri));
    if (!source) continue;
    sources.push(source);
    await run.writer.emit(
      'source.reviewed',
      {
        sourceCatalogUri: source.sourceCatalogUri,
        source: source.source,
        fileName: source.fileName,
        pageNumber: source.pageStart,
        pageEnd: source.pageEnd,
        sheetNumber: source.sheetNumber,
      },
      `${key}:source:${uri}`,
    );
  }
  const pages = sources.reduce((sum, source) => sum + source.pageEnd - source.pageStart + 1, 0);
  await run.writer.emit(
    'tool.completed',
    {
      name: call.name,
      status: 'completed',
      sourceCount: sources.length,
      pageCount: pages,
      continuationCount: 0,
    },
    `${key}:completed`,
  );
  await run.deps.reviews.addReviewedSources(
    run.execution.orgId,
    run.execution.reviewId,
    sources.map((source) => source.sourceCatalogUri),
  );
  return { turn: run.conversation.turn, call, sources };
}

function startPayload(call: ToolCall) {
  if (call.name === 'search_sources') return { modes: call.modes };
  return { sourceCount: call.name === 'read_source' ? 1 : call.sourceCatalogUris.length };
}
