import { BedrockAgentRuntimeClient, RerankCommand } from '@aws-sdk/client-bedrock-agent-runtime';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { BedrockReranker } from '../../../functions/adapters/rerank/bedrock-reranker.ts';
import { fuseRankings, rerankFused } from '../../../functions/core/search/fusion.ts';
import type { IndexHit } from '../../../functions/core/search/ports.ts';

const bedrock = mockClient(BedrockAgentRuntimeClient);
const MODEL = BedrockReranker.modelArn('us-west-2', 'amazon.rerank-v1:0');
const hit = (sourceUri: string, text: string): IndexHit =>
  ({
    score: 1,
    passage: { sourceUri, passageId: sourceUri, head: sourceUri.toUpperCase(), text },
  }) as unknown as IndexHit;

describe('the rerank stage on the Bedrock reranker (mocked at the SDK client)', () => {
  beforeEach(() => bedrock.reset());

  it('sends the query and the sources inline in one call, and reads the relevance back by index', async () => {
    // Prepare: the reranker scores the third document first.
    bedrock.on(RerankCommand).resolves({
      results: [
        { index: 2, relevanceScore: 0.91 },
        { index: 0, relevanceScore: 0.4 },
        { index: 1, relevanceScore: 0.02 },
      ],
    });
    const reranker = new BedrockReranker(new BedrockAgentRuntimeClient({}), MODEL);
    const fused = fuseRankings([
      {
        hits: [hit('a', 'general notes'), hit('b', 'title block'), hit('c', 'door 104 hardware set 3')],
        mode: 'exact',
        k: 5,
        weight: 1,
      },
    ]);

    // Act
    const { sources, failed } = await rerankFused(fused, reranker, 'door 104 hardware', 20);

    // Assess
    expect(failed).toBeNull();
    expect(sources.map((source) => source.hit.passage.sourceUri)).toEqual(['c', 'a', 'b']);
    const calls = bedrock.commandCalls(RerankCommand);
    expect(calls).toHaveLength(1);
    const input = calls[0]?.args[0].input;
    expect(input?.queries).toEqual([{ type: 'TEXT', textQuery: { text: 'door 104 hardware' } }]);
    expect(input?.sources?.[2]).toEqual({
      type: 'INLINE',
      inlineDocumentSource: { type: 'TEXT', textDocument: { text: 'C\ndoor 104 hardware set 3' } },
    });
    expect(input?.rerankingConfiguration?.bedrockRerankingConfiguration?.modelConfiguration?.modelArn).toBe(
      'arn:aws:bedrock:us-west-2::foundation-model/amazon.rerank-v1:0',
    );
  });

  it('reorders only the first sources, and keeps the fused order when the reranker fails', async () => {
    bedrock
      .on(RerankCommand)
      .resolvesOnce({
        results: [
          { index: 1, relevanceScore: 0.9 },
          { index: 0, relevanceScore: 0.1 },
        ],
      })
      .rejects(new Error('ThrottlingException: Too many requests'));
    const reranker = new BedrockReranker(new BedrockAgentRuntimeClient({}), MODEL);
    const fused = fuseRankings([
      { hits: [hit('a', 'x'), hit('b', 'y'), hit('c', 'z')], mode: 'exact', k: 5, weight: 1 },
    ]);

    const first = await rerankFused(fused, reranker, 'q', 2);
    const second = await rerankFused(fused, reranker, 'q', 2);

    // Only a and b went to the reranker; c keeps its place after them.
    expect(bedrock.commandCalls(RerankCommand)[0]?.args[0].input.sources).toHaveLength(2);
    expect(first.sources.map((source) => source.hit.passage.sourceUri)).toEqual(['b', 'a', 'c']);
    expect(second.failed?.message).toContain('Throttling');
    expect(second.sources.map((source) => source.hit.passage.sourceUri)).toEqual(['a', 'b', 'c']);
  });
});
