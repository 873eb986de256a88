import { BatchWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import pLimit from 'p-limit';

const CHUNKS_IN_FLIGHT = 8;

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
  // A steady pipeline of chunks, not groups that wait for their slowest: 1,055 rows of 3.5 KB (the size
  // of a spec book's facet rows) went to DynamoDB Local in 543-816 ms with 8 in flight, 853-1011 ms with 4.
  // After a failure no further chunk starts (those waiting are dropped), and the call returns once
  // the chunks in flight have settled: no write is left running behind the error it throws.
  const limit = pLimit({ concurrency: CHUNKS_IN_FLIGHT, rejectOnClear: true });
  let failure: { error: unknown } | undefined;
  await Promise.allSettled(
    chunks.map((chunk) =>
      limit(() =>
        writeChunk(chunk).catch((error: unknown) => {
          failure ??= { error };
          limit.clearQueue();
        }),
      ),
    ),
  );
  if (failure) throw failure.error;
}
