import { type BedrockRuntimeClient, InvokeModelCommand } from '@aws-sdk/client-bedrock-runtime';
import type { Embedder } from '../../core/search/ports.ts';

/** Titan Text Embeddings V2 takes up to 8,192 tokens; passages are far shorter, this is a guard. */
const MAX_INPUT_CHARS = 30_000;
const CONCURRENCY = 8;

/**
 * Amazon Bedrock embeddings (Titan Text Embeddings V2 by default). Titan embeds one text per call,
 * so a batch runs a few calls at a time; throttling is retried by the SDK client (adaptive retry
 * mode, set where the client is built).
 */
export class BedrockEmbedder implements Embedder {
  readonly id: string;
  readonly dimension: number;
  private readonly client: BedrockRuntimeClient;
  private readonly modelId: string;

  constructor(client: BedrockRuntimeClient, modelId: string, dimension: number) {
    this.client = client;
    this.modelId = modelId;
    this.dimension = dimension;
    this.id = `bedrock:${modelId}:${dimension}`;
  }

  private async embedOne(text: string): Promise<number[]> {
    const response = await this.client.send(
      new InvokeModelCommand({
        modelId: this.modelId,
        contentType: 'application/json',
        accept: 'application/json',
        body: JSON.stringify({
          inputText: text.slice(0, MAX_INPUT_CHARS) || ' ',
          dimensions: this.dimension,
          normalize: true,
        }),
      }),
    );
    const parsed = JSON.parse(new TextDecoder().decode(response.body)) as { embedding?: unknown };
    if (
      !Array.isArray(parsed.embedding) ||
      parsed.embedding.length !== this.dimension ||
      !parsed.embedding.every((value) => typeof value === 'number')
    )
      throw new Error(`Bedrock returned no ${this.dimension}-dimension embedding for ${this.modelId}`);
    return parsed.embedding as number[];
  }

  async embed(texts: string[], _purpose?: 'passage' | 'query'): Promise<number[][]> {
    const out: number[][] = new Array(texts.length);
    let next = 0;
    const worker = async () => {
      while (next < texts.length) {
        const position = next++;
        out[position] = await this.embedOne(texts[position] as string);
      }
    };
    await Promise.all(Array.from({ length: Math.min(CONCURRENCY, texts.length) }, worker));
    return out;
  }
}
