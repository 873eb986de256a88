import {
  BatchGetCommand,
  type DynamoDBDocumentClient,
  QueryCommand,
  type QueryCommandInput,
} from '@aws-sdk/lib-dynamodb';
import type { Page } from '../../core/pagination/page.ts';
import type { IndexProjection } from './table.ts';

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

/**
 * One key range of a listing: a partition of the table or of an index, narrowed to a sort-key
 * prefix or span. A listing reads its ranges one after the other, in the listing's order.
 */
export interface KeyRange {
  /**
   * The index to query (its name, key attributes and projection), or the table itself when absent.
   * Items of an index that does not hold them whole are read from the table by key.
   */
  index?: { name: string; partitionKey: string; sortKey: string; projection?: IndexProjection };
  partition: string;
  prefix?: string;
  /** Inclusive sort-key bounds; used when `prefix` is absent. */
  between?: [string, string];
}

/** Where a listing over several ranges stopped: the range, and the last key read in it. */
export interface RangePosition {
  range: number;
  key: Record<string, unknown>;
}

export interface RangeFilter {
  FilterExpression?: string;
  ExpressionAttributeNames?: Record<string, string>;
  values: Record<string, unknown>;
}

function rangeQuery(tableName: string, range: KeyRange, filter: RangeFilter) {
  const partitionKey = range.index?.partitionKey ?? 'pk';
  const sortKey = range.index?.sortKey ?? 'sk';
  const names: Record<string, string> = {
    ...filter.ExpressionAttributeNames,
    '#rpk': partitionKey,
    '#rsk': sortKey,
  };
  const values: Record<string, unknown> = { ...filter.values, ':rpk': range.partition };
  let condition = '#rpk = :rpk';
  if (range.prefix !== undefined) {
    condition += ' AND begins_with(#rsk, :rprefix)';
    values[':rprefix'] = range.prefix;
  } else if (range.between) {
    condition += ' AND #rsk BETWEEN :rfrom AND :rto';
    values[':rfrom'] = range.between[0];
    values[':rto'] = range.between[1];
  } else {
    delete names['#rsk'];
  }
  return {
    TableName: tableName,
    ...(range.index ? { IndexName: range.index.name } : {}),
    KeyConditionExpression: condition,
    ...(filter.FilterExpression ? { FilterExpression: filter.FilterExpression } : {}),
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: values,
  };
}

/** The key DynamoDB needs to resume after an item: the table's keys, and the index's when one is read. */
function resumeKeyOf(range: KeyRange, item: Record<string, unknown>): Record<string, unknown> {
  const key: Record<string, unknown> = { pk: item.pk, sk: item.sk };
  if (range.index) {
    key[range.index.partitionKey] = item[range.index.partitionKey];
    key[range.index.sortKey] = item[range.index.sortKey];
  }
  return key;
}

/**
 * One page read across ranges in order: the cost is the page and the items its filter skips within
 * the ranges, never the size of the project outside them.
 */
export async function queryRangesPage<T>(
  client: DynamoDBDocumentClient,
  tableName: string,
  ranges: KeyRange[],
  filter: RangeFilter,
  options: { limit: number; position: RangePosition | null; map: (item: Record<string, unknown>) => T },
): Promise<Page<T> & { positions: RangePosition[]; nextPosition: RangePosition | null }> {
  const found: { item: Record<string, unknown>; position: RangePosition }[] = [];
  let rangeIndex = options.position?.range ?? 0;
  let startKey: Record<string, unknown> | null = options.position?.key ?? null;
  let more = false;
  while (rangeIndex < ranges.length && found.length < options.limit) {
    const range = ranges[rangeIndex] as KeyRange;
    const page = await queryPage<Record<string, unknown>>(client, rangeQuery(tableName, range, filter), {
      limit: options.limit - found.length,
      position: startKey,
      keyOf: (item) => resumeKeyOf(range, item),
      map: (item) => item,
    });
    const at = rangeIndex;
    page.items.forEach((item, index) => {
      found.push({ item, position: { range: at, key: page.positions[index] as Record<string, unknown> } });
    });
    if (page.nextPosition !== null) {
      more = true;
      break;
    }
    rangeIndex++;
    startKey = null;
  }
  // A full page that ended exactly with a range: more follows only if a later range has a match.
  for (let next = rangeIndex; !more && found.length > 0 && next < ranges.length; next++) {
    const range = ranges[next] as KeyRange;
    const probe = await queryPage(client, rangeQuery(tableName, range, filter), {
      limit: 1,
      position: null,
      keyOf: (item) => resumeKeyOf(range, item),
      map: (item) => item,
    });
    more = probe.items.length > 0;
  }
  const last = found.at(-1);
  const partial = (entry: { position: RangePosition }) => {
    const projection = ranges[entry.position.range]?.index?.projection;
    return projection !== undefined && projection.type !== 'ALL';
  };
  const whole = await wholeItems(
    client,
    tableName,
    found.filter(partial).map((entry) => entry.item),
  );
  // An item deleted between the index read and the table read is left out (the cursor still moves on).
  const kept = found.flatMap((entry) => {
    if (!partial(entry)) return [entry];
    const item = whole.get(itemKey(entry.item));
    return item ? [{ item, position: entry.position }] : [];
  });
  return {
    items: kept.map((entry) => options.map(entry.item)),
    nextPosition: more && last ? last.position : null,
    positions: kept.map((entry) => entry.position),
  };
}

/** An item's table key as one string (the map key of `wholeItems`). */
export const itemKey = (item: Record<string, unknown>) => `${String(item.pk)}\u0000${String(item.sk)}`;
/** BatchGetItem reads at most 100 keys a call. */
const BATCH_GET_KEYS = 100;

/**
 * The whole items behind index entries, read consistently from the table by key (100 a call, keys
 * DynamoDB left unprocessed asked again with backoff), by `itemKey`; an item deleted meanwhile is absent.
 */
export async function wholeItems(
  client: DynamoDBDocumentClient,
  tableName: string,
  entries: Record<string, unknown>[],
): Promise<Map<string, Record<string, unknown>>> {
  const keys = [
    ...new Map(entries.map((entry) => [itemKey(entry), { pk: entry.pk, sk: entry.sk }])).values(),
  ];
  const found = new Map<string, Record<string, unknown>>();
  for (let start = 0; start < keys.length; start += BATCH_GET_KEYS) {
    let pending: Record<string, unknown>[] = keys.slice(start, start + BATCH_GET_KEYS);
    for (let attempt = 0; pending.length > 0; attempt++) {
      if (attempt > 0)
        await new Promise((resolve) => setTimeout(resolve, Math.min(1_000, 25 * 2 ** attempt)));
      const result = await client.send(
        new BatchGetCommand({ RequestItems: { [tableName]: { Keys: pending, ConsistentRead: true } } }),
      );
      for (const item of result.Responses?.[tableName] ?? []) found.set(itemKey(item), item);
      pending = (result.UnprocessedKeys?.[tableName]?.Keys ?? []) as Record<string, unknown>[];
    }
  }
  return found;
}

/** How many items the ranges hold that pass the filter. */
export async function countRanges(
  client: DynamoDBDocumentClient,
  tableName: string,
  ranges: KeyRange[],
  filter: RangeFilter,
): Promise<number> {
  let total = 0;
  for (const range of ranges) total += await queryCount(client, rangeQuery(tableName, range, filter));
  return total;
}
