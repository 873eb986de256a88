import { unmarshall } from '@aws-sdk/util-dynamodb';

/** Which items of a cancelled transaction failed their condition, with the old item where returned. */
export function cancellationReasons(
  error: unknown,
): { failed: boolean; code: string | undefined; item: Record<string, unknown> | undefined }[] | null {
  if (!(error instanceof Error) || error.name !== 'TransactionCanceledException') return null;
  const reasons = (error as { CancellationReasons?: { Code?: string; Item?: Record<string, unknown> }[] })
    .CancellationReasons;
  if (!reasons) return null;
  return reasons.map((reason) => ({
    failed: reason.Code === 'ConditionalCheckFailed',
    code: reason.Code,
    item: reason.Item ? unmarshallIfNeeded(reason.Item) : undefined,
  }));
}

const TYPE_TAGS = new Set(['S', 'N', 'B', 'SS', 'NS', 'BS', 'M', 'L', 'NULL', 'BOOL']);

/** Items attached to errors come back as raw attribute values, even through the document client. */
export function unmarshallIfNeeded(item: Record<string, unknown>): Record<string, unknown> {
  const first = Object.values(item)[0];
  const tags = typeof first === 'object' && first !== null ? Object.keys(first) : [];
  const looksMarshalled = tags.length === 1 && TYPE_TAGS.has(tags[0] as string);
  return looksMarshalled ? unmarshall(item as Parameters<typeof unmarshall>[0]) : item;
}

export function isConditionFailure(error: unknown): boolean {
  return error instanceof Error && error.name === 'ConditionalCheckFailedException';
}
