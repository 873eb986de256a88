import { BedrockRuntimeClient, InvokeModelCommand } from '@aws-sdk/client-bedrock-runtime';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { BedrockEmbedder } from '../../../functions/adapters/embeddings/bedrock-embedder.ts';

const bedrock = mockClient(BedrockRuntimeClient);
const reply = (embedding: number[]) => ({
  body: new TextEncoder().encode(JSON.stringify({ embedding })) as never,
});

describe('the Bedrock embedder (mocked at the SDK client)', () => {
  beforeEach(() => bedrock.reset());

  it('asks Titan V2 for one normalized embedding of the configured dimension per text, in order', async () => {
    // Prepare
    bedrock.on(InvokeModelCommand).callsFake((input: { body: string }) => {
      const text = JSON.parse(input.body).inputText as string;
      return reply([text.length, 0, 0, 1]);
    });
    const embedder = new BedrockEmbedder(new BedrockRuntimeClient({}), 'amazon.titan-embed-text-v2:0', 4);
    // Act
    const vectors = await embedder.embed(['a', 'bb', 'ccc'], 'passage');
    // Assess
    expect(vectors.map((vector) => vector[0])).toEqual([1, 2, 3]);
    const calls = bedrock.commandCalls(InvokeModelCommand);
    expect(calls).toHaveLength(3);
    expect(calls[0]?.args[0].input.modelId).toBe('amazon.titan-embed-text-v2:0');
    expect(JSON.parse(String(calls[0]?.args[0].input.body))).toMatchObject({
      dimensions: 4,
      normalize: true,
    });
    expect(embedder.id).toBe('bedrock:amazon.titan-embed-text-v2:0:4');
  });

  it('refuses a reply of another dimension', async () => {
    bedrock.on(InvokeModelCommand).resolves(reply([1, 2]));
    const embedder = new BedrockEmbedder(new BedrockRuntimeClient({}), 'amazon.titan-embed-text-v2:0', 4);
    await expect(embedder.embed(['a'], 'query')).rejects.toThrow(/4-dimension/);
  });
});
