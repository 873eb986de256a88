import { BatchWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

type WriteRequests = NonNullable<ConstructorParameters<typeof BatchWriteCommand>[0]['RequestItems']>[string];

/**
 * Writes any number of put and delete requests in chunks of 25, a few chunks in flight at once;
 * unprocessed items are retried with backoff. Each request is idempotent (keyed rows), so a retried
 * call rewrites and never duplicates.
 */
export async function batchWriteAll(
  client: DynamoDBDocumentClient,
  tableName: string,
  requests: WriteRequests,
): Promise<void> {
  const chunks: WriteRequests[] = [];
  for (let start = 0; start < requests.length; start += 25) chunks.push(requests.slice(start, start + 25));
  const writeChunk = async (chunk: WriteRequests) => {
    let pending = chunk;
    for (let attempt = 0; pending.length > 0; attempt++) {
      const result = await client.send(new BatchWriteCommand({ RequestItems: { [tableName]: pending } }));
      pending = result.UnprocessedItems?.[tableName] ?? [];
      if (pending.length > 0) {
        if (attempt > 8) throw new Error('DynamoDB kept throttling a batch write');
        await new Promise((resolve) => setTimeout(resolve, 50 * 2 ** attempt));
      }
    }
  };
  for (let start = 0; start < chunks.length; start += 4)
    await Promise.all(chunks.slice(start, start + 4).map(writeChunk));
}
