import { describe, expect, it } from 'vitest';
import { batchWriteAll } from '../../functions/adapters/dynamodb/batch-write.ts';
import { prefixQuery, queryAll } from '../../functions/adapters/dynamodb/query-page.ts';
import { newId } from '../../functions/core/ids.ts';
import { dynamo } from '../../functions/shared/clients.ts';

const TABLE = process.env.TABLE_NAME ?? '';

const rows = (pk: string, count: number) =>
  Array.from({ length: count }, (_, index) => ({
    PutRequest: { Item: { pk, sk: `ROW#${String(index).padStart(4, '0')}`, text: 'x'.repeat(2_000) } },
  }));

const writtenKeys = async (pk: string): Promise<string[]> =>
  (await queryAll(dynamo, prefixQuery(TABLE, pk, 'ROW#'))).map((item) => String(item.sk));

describe('batchWriteAll against DynamoDB Local', () => {
  it('writes every row of a request list larger than the chunks in flight', async () => {
    // Prepare
    const pk = `TEST#${newId('job')}`;

    // Act: 40 chunks of 25, more than the 8 in flight.
    await batchWriteAll(dynamo, TABLE, rows(pk, 1_000));

    // Assess
    expect(new Set(await writtenKeys(pk)).size).toBe(1_000);
  });

  it('throws the failure of a chunk, starts no chunk after it, and leaves none running', async () => {
    // Prepare: chunk 3 of 40 holds an item without its sort key, which DynamoDB refuses.
    const pk = `TEST#${newId('job')}`;
    const requests = rows(pk, 1_000);
    requests[60] = { PutRequest: { Item: { pk, text: 'no sort key' } as never } };

    // Act
    const outcome = await batchWriteAll(dynamo, TABLE, requests).then(
      () => null,
      (error: Error) => error,
    );
    const afterReturn = await writtenKeys(pk);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const later = await writtenKeys(pk);

    // Assess: the validation error, not an abort of the dropped chunks; only the chunks started before
    // the failure came back are written (8 in flight, a few more as the first ones finished), the
    // failed chunk not at all, and nothing is written once the call has returned.
    expect(outcome?.name).toBe('ValidationException');
    expect(afterReturn.length).toBeGreaterThan(0);
    expect(afterReturn.length).toBeLessThanOrEqual(16 * 25);
    expect(afterReturn).not.toContain('ROW#0061');
    expect(later).toEqual(afterReturn);
  });
});
