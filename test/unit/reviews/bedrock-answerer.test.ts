import { BedrockRuntimeClient, ConverseStreamCommand } from '@aws-sdk/client-bedrock-runtime';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { BedrockAnswerer, messagesOf } from '../../../functions/adapters/answerers/bedrock-answerer.ts';
import type { Conversation, ReviewedSource } from '../../../functions/core/reviews/answerer.ts';

const bedrock = mockClient(BedrockRuntimeClient);

type StreamEvent = Record<string, unknown>;
/** A ConverseStream reply whose events arrive in order; `failAfter` makes the stream break there. */
const reply = (events: StreamEvent[], failAfter?: number) => ({
  stream: (async function* () {
    for (const [index, event] of events.entries()) {
      if (failAfter !== undefined && index === failAfter)
        throw Object.assign(new Error('stream reset'), { name: 'ModelStreamErrorException' });
      yield event;
    }
  })() as never,
});
const text = (chunk: string) => ({ contentBlockDelta: { contentBlockIndex: 0, delta: { text: chunk } } });
const stop = (stopReason: string) => ({ messageStop: { stopReason } });

const addendum: ReviewedSource = {
  sourceCatalogUri: 'service://projects/prj_1/documents/doc_1/pages/1',
  source: { type: 'doc', id: 'doc_1:1', label: 'addendum-02.pdf · p. 1' },
  documentId: 'doc_1',
  fileName: 'addendum-02.pdf',
  classification: 'addenda',
  pageStart: 1,
  pageEnd: 1,
  sheetNumber: null,
  artifact: null,
  passages: [
    {
      text: 'Q1. Are permit fees paid by the Owner? A1. No, the General Contractor is responsible for all permit fees.',
      pageNumber: 1,
      pageEnd: 1,
      box: null,
    },
  ],
};
const asked: Conversation = { question: 'Who pays the permit fees?', filters: {}, turn: 0, results: [] };
const read: Conversation = {
  ...asked,
  turn: 2,
  results: [
    {
      turn: 0,
      call: { id: 'tu_search', name: 'search_sources', query: 'permit fees', modes: ['exact', 'semantic'] },
      hits: [],
    },
    {
      turn: 1,
      call: { id: 'tu_review', name: 'review_sources', sourceCatalogUris: [addendum.sourceCatalogUri] },
      sources: [addendum],
    },
  ],
};
const collect = () => {
  const deltas: string[] = [];
  return { deltas, emit: async (delta: string) => void deltas.push(delta) };
};
const answerer = () => new BedrockAnswerer(new BedrockRuntimeClient({}), 'amazon.nova-pro-v1:0');

describe('the Bedrock answerer (mocked at the SDK client)', () => {
  beforeEach(() => bedrock.reset());

  it('turns a tool request of the model into tool calls, streaming nothing', async () => {
    // Prepare
    bedrock.on(ConverseStreamCommand).resolves(
      reply([
        {
          contentBlockStart: {
            contentBlockIndex: 0,
            start: { toolUse: { toolUseId: 'tu_1', name: 'search_sources' } },
          },
        },
        { contentBlockDelta: { contentBlockIndex: 0, delta: { toolUse: { input: '{"query":"permit' } } } },
        {
          contentBlockDelta: {
            contentBlockIndex: 0,
            delta: { toolUse: { input: ' fees","modes":["exact"]}' } },
          },
        },
        stop('tool_use'),
      ]),
    );
    const { deltas, emit } = collect();
    // Act
    const result = await answerer().turn(asked, emit, false);
    // Assess
    expect(result).toEqual({
      kind: 'tools',
      calls: [{ name: 'search_sources', id: 'tu_1', query: 'permit fees', modes: ['exact'] }],
    });
    expect(deltas).toEqual([]);
    const input = bedrock.commandCalls(ConverseStreamCommand)[0]?.args[0].input;
    expect(input?.modelId).toBe('amazon.nova-pro-v1:0');
    expect(input?.system?.[0]?.text).toContain('Never state a fact without such a marker');
    expect(input?.toolConfig?.tools?.map((tool) => tool.toolSpec?.name)).toEqual([
      'search_sources',
      'review_sources',
      'read_source',
    ]);
  });

  it('streams the answer and cites each marker with the sentence of the source that supports it', async () => {
    // Prepare
    bedrock
      .on(ConverseStreamCommand)
      .resolves(
        reply([text('The General Contractor pays '), text('all permit fees [1].'), stop('end_turn')]),
      );
    const { deltas, emit } = collect();
    // Act
    const result = await answerer().turn(read, emit, false);
    // Assess
    expect(deltas.join('')).toBe('The General Contractor pays all permit fees [1].');
    expect(result).toEqual({
      kind: 'answer',
      answer: {
        text: 'The General Contractor pays all permit fees [1].',
        citations: [
          {
            marker: 1,
            sourceCatalogUri: addendum.sourceCatalogUri,
            quote: 'No, the General Contractor is responsible for all permit fees.',
          },
        ],
      },
    });
  });

  it('rebuilds the conversation as tool uses and tool results, sources numbered as the model cites them', () => {
    const messages = messagesOf(read);
    expect(messages.map((message) => message.role)).toEqual([
      'user',
      'assistant',
      'user',
      'assistant',
      'user',
    ]);
    expect(messages[3]?.content?.[0]?.toolUse?.toolUseId).toBe('tu_review');
    expect(messages[4]?.content?.[0]?.toolResult?.toolUseId).toBe('tu_review');
    expect(messages[4]?.content?.[0]?.toolResult?.content?.[0]?.text).toMatch(
      /^\[1\] addendum-02\.pdf · p\. 1/,
    );
  });

  it('fails the turn on throttling before any text (the step is retried), and ends partial when the stream breaks mid-answer', async () => {
    // Prepare
    const long =
      'The General Contractor is responsible for all permit fees, as the answer to question one of the addendum says [1]. ';
    bedrock
      .on(ConverseStreamCommand)
      .rejectsOnce(Object.assign(new Error('Too many requests'), { name: 'ThrottlingException' }))
      .resolves(reply([text(long), text(long), text(long), text('And then'), stop('end_turn')], 3));
    const { deltas, emit } = collect();
    // Act
    const throttled = answerer().turn(read, emit, false);
    await expect(throttled).rejects.toThrow('Too many requests');
    const cut = await answerer().turn(read, emit, false);
    // Assess
    expect(cut.kind).toBe('answer');
    const answer = (cut as { answer: { text: string; partial?: boolean; citations: unknown[] } }).answer;
    expect(answer.partial).toBe(true);
    expect(answer.text).toBe(long.repeat(3));
    expect(deltas.join('')).toBe(long.repeat(3));
    expect(answer.citations).toHaveLength(1);
  });
});
