import {
  type BedrockRuntimeClient,
  type ContentBlock,
  ConverseStreamCommand,
  type Message,
  type ToolConfiguration,
} from '@aws-sdk/client-bedrock-runtime';
import {
  type Answerer,
  type Conversation,
  type DraftCitation,
  type ReviewedSource,
  reviewedSources,
  type ToolCall,
  type TurnResult,
} from '../../core/reviews/answerer.ts';
import { analyzeQuery, analyzeText } from '../../core/search/analyzer.ts';

/**
 * Amazon Bedrock (Converse streaming with tool use) as the answerer. The model plans with the tools
 * (search_sources, read_source, review_sources) and writes the answer, marking each factual sentence
 * with the number of a source it read, `[n]`; every marker becomes a citation of that source, quoting
 * the sentence of the source that best supports the marked sentence. The conversation is rebuilt
 * from the tool results at each turn (the state machine carries it), so a turn is a plain request.
 */

export const SYSTEM_PROMPT = `You answer questions about one construction project's documents (drawings, specifications, addenda, logs), using only what the tools return.
Rules:
- First search (search_sources), then read the promising sources (review_sources or read_source), then answer.
- Every sentence that states a fact ends with the number of the source it comes from, like [2]. Sources are numbered in the tool results. Never state a fact without such a marker, and never cite a source you have not read.
- When an addendum changes or reissues a section or sheet, the later document governs: say so, name the addendum (number and date), and cite both.
- If the documents do not answer the question, say plainly that they do not, and do not guess.
- Write the answer directly, in plain sentences; do not write anything before calling tools.`;

const TOOLS: ToolConfiguration = {
  tools: [
    {
      toolSpec: {
        name: 'search_sources',
        description:
          "Search the project's sources (regions of drawing sheets, specification sections and their parts, pages of other documents).",
        inputSchema: {
          json: {
            type: 'object',
            properties: {
              query: { type: 'string', description: 'Words, identifiers (A-501, 07 55 00) or a phrase.' },
              modes: { type: 'array', items: { type: 'string', enum: ['exact', 'semantic'] } },
              fileName: {
                type: 'string',
                description:
                  'Only files whose name contains this (case-insensitive), e.g. a file name from earlier hits.',
              },
            },
            required: ['query'],
          },
        },
      },
    },
    {
      toolSpec: {
        name: 'review_sources',
        description: 'Read up to 6 sources found by a search, by their sourceCatalogUri.',
        inputSchema: {
          json: {
            type: 'object',
            properties: { sourceCatalogUris: { type: 'array', items: { type: 'string' }, maxItems: 6 } },
            required: ['sourceCatalogUris'],
          },
        },
      },
    },
    {
      toolSpec: {
        name: 'read_source',
        description: 'Read one source in full, by its sourceCatalogUri.',
        inputSchema: {
          json: {
            type: 'object',
            properties: { sourceCatalogUri: { type: 'string' } },
            required: ['sourceCatalogUri'],
          },
        },
      },
    },
  ],
};

/** Streamed text is held back until it is clearly an answer (a turn may end by asking for tools). */
const HOLD_CHARS = 300;

/** The reviewed sources, numbered in the order they were first read: the numbers the model cites. */
function numbered(conversation: Conversation): ReviewedSource[] {
  return [...reviewedSources(conversation).values()];
}

function sourceText(number: number, source: ReviewedSource): string {
  const pages =
    source.pageEnd > source.pageStart
      ? `pp. ${source.pageStart}-${source.pageEnd}`
      : `p. ${source.pageStart}`;
  return `[${number}] ${source.source.label} (${source.fileName}, ${pages}; ${source.sourceCatalogUri})\n${source.passages
    .map((passage) => passage.text)
    .join('\n')}`;
}

/** The Bedrock messages of a conversation: the question, then per turn the tool calls and their results. */
export function messagesOf(conversation: Conversation): Message[] {
  const messages: Message[] = [{ role: 'user', content: [{ text: conversation.question }] }];
  const numbers = new Map(
    numbered(conversation).map((source, index) => [source.sourceCatalogUri, index + 1]),
  );
  const turns = new Map<number, Conversation['results']>();
  for (const result of conversation.results) {
    const turn = result.turn ?? 0;
    turns.set(turn, [...(turns.get(turn) ?? []), result]);
  }
  for (const [turn, results] of [...turns.entries()].sort((a, b) => a[0] - b[0])) {
    const id = (index: number) => results[index]?.call.id ?? `t${turn}_${index}`;
    messages.push({
      role: 'assistant',
      content: results.map(
        (result, index): ContentBlock => ({
          toolUse: { toolUseId: id(index), name: result.call.name, input: inputOf(result.call) as never },
        }),
      ),
    });
    messages.push({
      role: 'user',
      content: results.map((result, index): ContentBlock => {
        const text = result.hits
          ? result.hits
              .map(
                (hit) =>
                  `${hit.sourceCatalogUri} | ${hit.label} | ${hit.fileName} p. ${hit.pageNumber} | ${hit.snippet}`,
              )
              .join('\n') || 'No source matched.'
          : (result.sources ?? [])
              .map((source) => sourceText(numbers.get(source.sourceCatalogUri) ?? 0, source))
              .join('\n\n') || 'No such source.';
        return { toolResult: { toolUseId: id(index), content: [{ text }] } };
      }),
    });
  }
  return messages;
}

function inputOf(call: ToolCall): Record<string, unknown> {
  if (call.name === 'search_sources')
    return { query: call.query, modes: call.modes, ...(call.fileName ? { fileName: call.fileName } : {}) };
  if (call.name === 'read_source') return { sourceCatalogUri: call.sourceCatalogUri };
  return { sourceCatalogUris: call.sourceCatalogUris };
}

/** A tool call of the model, validated (anything else is ignored). */
function toolCall(name: string, id: string, raw: string): ToolCall | null {
  let input: Record<string, unknown>;
  try {
    input = JSON.parse(raw || '{}') as Record<string, unknown>;
  } catch {
    return null;
  }
  if (name === 'search_sources' && typeof input.query === 'string' && input.query.trim()) {
    const modes = Array.isArray(input.modes)
      ? input.modes.filter((mode): mode is 'exact' | 'semantic' => mode === 'exact' || mode === 'semantic')
      : [];
    return {
      name,
      id,
      query: input.query.slice(0, 1000),
      modes: modes.length ? modes : ['exact', 'semantic'],
      ...(typeof input.fileName === 'string' && input.fileName.trim()
        ? { fileName: input.fileName.trim().slice(0, 255) }
        : {}),
    };
  }
  if (name === 'read_source' && typeof input.sourceCatalogUri === 'string')
    return { name, id, sourceCatalogUri: input.sourceCatalogUri };
  if (name === 'review_sources' && Array.isArray(input.sourceCatalogUris))
    return {
      name,
      id,
      sourceCatalogUris: input.sourceCatalogUris
        .filter((uri): uri is string => typeof uri === 'string')
        .slice(0, 6),
    };
  return null;
}

/** Each `[n]` of the text, cited by the sentence of source n that shares the most words with the marked sentence. */
export function citationsOf(text: string, sources: ReviewedSource[]): DraftCitation[] {
  const citations = new Map<number, DraftCitation>();
  for (const sentence of text.split(/(?<=[.!?])\s+|\n+/)) {
    const words = new Set(analyzeQuery(sentence.replace(/\[\d+\]/g, '')).terms);
    for (const match of sentence.matchAll(/\[(\d+)\]/g)) {
      const marker = Number(match[1]);
      const source = sources[marker - 1];
      if (!source || citations.has(marker)) continue;
      let best = '';
      let bestScore = -1;
      for (const passage of source.passages)
        for (const candidate of passage.text.split(/(?<=[.!?;])\s+|\n+/)) {
          const tokens = new Set(analyzeText(candidate).split(' '));
          const score = [...words].filter((word) => tokens.has(word)).length;
          if (score > bestScore && candidate.trim().length > 0) {
            best = candidate.trim();
            bestScore = score;
          }
        }
      citations.set(marker, { marker, sourceCatalogUri: source.sourceCatalogUri, quote: best.slice(0, 400) });
    }
  }
  return [...citations.values()].sort((a, b) => a.marker - b.marker);
}

export class BedrockAnswerer implements Answerer {
  readonly kind = 'bedrock' as const;
  readonly deterministic = false;
  private readonly client: BedrockRuntimeClient;
  private readonly modelId: string;

  constructor(client: BedrockRuntimeClient, modelId: string) {
    this.client = client;
    this.modelId = modelId;
  }

  async turn(
    conversation: Conversation,
    emit: (delta: string) => Promise<void>,
    final: boolean,
  ): Promise<TurnResult> {
    // The last turn may not ask for tools: the tool list stays (the history uses it), the instruction says so.
    const system = final
      ? `${SYSTEM_PROMPT}\n- Answer now with what you have read; do not call tools.`
      : SYSTEM_PROMPT;
    const response = await this.client.send(
      new ConverseStreamCommand({
        modelId: this.modelId,
        system: [{ text: system }],
        messages: messagesOf(conversation),
        toolConfig: TOOLS,
        inferenceConfig: { maxTokens: 2000, temperature: 0 },
      }),
    );
    let text = '';
    let held = '';
    let streaming = false;
    const tools: { name: string; id: string; input: string }[] = [];
    let stopReason: string | undefined;
    try {
      for await (const event of response.stream ?? []) {
        const start = event.contentBlockStart?.start?.toolUse;
        if (start) tools.push({ name: start.name ?? '', id: start.toolUseId ?? '', input: '' });
        const delta = event.contentBlockDelta?.delta;
        if (delta?.toolUse?.input !== undefined && tools.length > 0)
          (tools[tools.length - 1] as { input: string }).input += delta.toolUse.input;
        if (delta?.text) {
          text += delta.text;
          if (streaming) await emit(delta.text);
          else {
            held += delta.text;
            if (held.length >= HOLD_CHARS && tools.length === 0) {
              streaming = true;
              await emit(held);
              held = '';
            }
          }
        }
        if (event.messageStop) stopReason = event.messageStop.stopReason;
      }
    } catch (error) {
      // Cut mid-answer: what was streamed is the answer, marked partial; before any text, the step is retried.
      if (!streaming) throw error;
      return {
        kind: 'answer',
        answer: { text, citations: citationsOf(text, numbered(conversation)), partial: true },
      };
    }
    const calls = tools.flatMap((tool) => toolCall(tool.name, tool.id, tool.input) ?? []);
    if (stopReason === 'tool_use' && !streaming && !final && calls.length > 0)
      return { kind: 'tools', calls };
    if (!streaming && held) await emit(held);
    return {
      kind: 'answer',
      answer: {
        text,
        citations: citationsOf(text, numbered(conversation)),
        ...(stopReason === 'max_tokens' ? { partial: true } : {}),
      },
    };
  }
}
