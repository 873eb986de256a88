import { type DynamoDBDocumentClient, QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import type { Page } from '../../core/pagination/page.ts';

/**
 * One page of a (possibly filtered) query: reads until `limit + 1` matching items are found or the
 * partition ends, so `nextPosition` is null exactly on the last page. The position is the key of the
 * last returned item (never a LastEvaluatedKey past filtered-out rows), so no item is skipped.
 */
export async function queryPage<T>(
  client: DynamoDBDocumentClient,
  input: Omit<QueryCommandInput, 'Limit' | 'ExclusiveStartKey'>,
  options: {
    limit: number;
    position: unknown | null;
    keyOf: (item: Record<string, unknown>) => Record<string, unknown>;
    map: (item: Record<string, unknown>) => T;
  },
): Promise<Page<T>> {
  const found: Record<string, unknown>[] = [];
  let startKey = (options.position ?? undefined) as Record<string, unknown> | undefined;
  do {
    const result = await client.send(
      new QueryCommand({
        ...input,
        ExclusiveStartKey: startKey,
        Limit: Math.min(1000, Math.max(options.limit + 1 - found.length, 25)),
      }),
    );
    found.push(...(result.Items ?? []));
    startKey = result.LastEvaluatedKey;
  } while (startKey && found.length <= options.limit);
  const items = found.slice(0, options.limit);
  const last = items.at(-1);
  return {
    items: items.map(options.map),
    nextPosition: found.length > options.limit && last ? options.keyOf(last) : null,
    positions: items.map(options.keyOf),
  };
}

/** Number of items a query matches (filters included). */
export async function queryCount(
  client: DynamoDBDocumentClient,
  input: Omit<QueryCommandInput, 'Select' | 'ExclusiveStartKey'>,
): Promise<number> {
  let total = 0;
  let startKey: Record<string, unknown> | undefined;
  do {
    const result = await client.send(
      new QueryCommand({ ...input, Select: 'COUNT', ExclusiveStartKey: startKey }),
    );
    total += result.Count ?? 0;
    startKey = result.LastEvaluatedKey;
  } while (startKey);
  return total;
}

/** `SET a = :a, b = :b` for the given fields, with placeholder names safe for reserved words. */
export function setExpression(
  changes: Record<string, unknown>,
  prefix = 'c',
): {
  expression: string;
  names: Record<string, string>;
  values: Record<string, unknown>;
} {
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const parts: string[] = [];
  Object.entries(changes).forEach(([field, value], index) => {
    if (value === undefined) return;
    names[`#${prefix}${index}`] = field;
    values[`:${prefix}${index}`] = value;
    parts.push(`#${prefix}${index} = :${prefix}${index}`);
  });
  return { expression: parts.length ? `SET ${parts.join(', ')}` : '', names, values };
}

/** Every item a query matches, across DynamoDB's pages. */
export async function queryAll(
  client: DynamoDBDocumentClient,
  input: Omit<QueryCommandInput, 'ExclusiveStartKey'>,
): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const result = await client.send(new QueryCommand({ ...input, ExclusiveStartKey: startKey }));
    items.push(...(result.Items ?? []));
    startKey = result.LastEvaluatedKey;
  } while (startKey);
  return items;
}

/** A query for the items of one partition whose sort key starts with `prefix`. */
export function prefixQuery(tableName: string, pk: string, prefix: string) {
  return {
    TableName: tableName,
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': pk, ':prefix': prefix } as Record<string, unknown>,
  };
}
