import { type BedrockAgentRuntimeClient, RerankCommand } from '@aws-sdk/client-bedrock-agent-runtime';
import type { Reranker } from '../../core/search/ports.ts';

/** Characters of a document sent to the reranker (a passage is at most 1,200; its heading beside it). */
const MAX_DOCUMENT_CHARS = 2_000;

/**
 * The Bedrock Rerank API (`bedrock-agent-runtime`): one call per search with the query and the
 * documents inline (up to 100, one billed query), the relevance of each back by its index.
 */
export class BedrockReranker implements Reranker {
  private readonly client: BedrockAgentRuntimeClient;
  private readonly modelArn: string;

  constructor(client: BedrockAgentRuntimeClient, modelArn: string) {
    this.client = client;
    this.modelArn = modelArn;
  }

  /** The ARN of a foundation model in a Region (`amazon.rerank-v1:0`). */
  static modelArn(region: string, modelId: string): string {
    const partition = region.startsWith('cn-')
      ? 'aws-cn'
      : region.startsWith('us-gov-')
        ? 'aws-us-gov'
        : 'aws';
    return `arn:${partition}:bedrock:${region}::foundation-model/${modelId}`;
  }

  async rerank(query: string, documents: string[]): Promise<{ index: number; score: number }[]> {
    if (documents.length === 0) return [];
    const response = await this.client.send(
      new RerankCommand({
        queries: [{ type: 'TEXT', textQuery: { text: query } }],
        sources: documents.map((text) => ({
          type: 'INLINE',
          inlineDocumentSource: { type: 'TEXT', textDocument: { text: text.slice(0, MAX_DOCUMENT_CHARS) } },
        })),
        rerankingConfiguration: {
          type: 'BEDROCK_RERANKING_MODEL',
          bedrockRerankingConfiguration: {
            numberOfResults: documents.length,
            modelConfiguration: { modelArn: this.modelArn },
          },
        },
      }),
    );
    return (response.results ?? []).flatMap((result) =>
      result.index === undefined || result.relevanceScore === undefined
        ? []
        : [{ index: result.index, score: result.relevanceScore }],
    );
  }
}
