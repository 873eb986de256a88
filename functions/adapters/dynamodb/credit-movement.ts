import type { TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { keys, ledgerEntryItem } from './table.ts';

type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

export interface CreditMovement {
  orgId: string;
  /** Deterministic id (derived from the job or the project): the entry is written once, ever. */
  entryId: string;
  kind: string;
  /** Added to the balance (negative for a charge or a reservation). */
  amount: number;
  createdAt: string;
  /** Refuse the movement when the balance would go below zero (charges and reservations). */
  requireBalance: boolean;
  /** Extra fields of the ledger entry (jobId, projectId, refundOf, ...). */
  details?: Record<string, unknown>;
}

/**
 * THE credit transaction items: the ledger entry (written once: a retried movement fails its
 * condition instead of moving credits twice) and the balance update, always in this order, so a
 * caller reads cancellation reason `offset` as "already done" and `offset + 1` as "not enough
 * credits" (the balance comes back as the failed item when `requireBalance` is set).
 */
export function creditMovementItems(
  tableName: string,
  movement: CreditMovement,
): [TransactItem, TransactItem] {
  return [
    {
      Put: {
        TableName: tableName,
        Item: ledgerEntryItem({
          orgId: movement.orgId,
          id: movement.entryId,
          kind: movement.kind,
          amount: movement.amount,
          createdAt: movement.createdAt,
          ...movement.details,
        }),
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
    {
      Update: {
        TableName: tableName,
        Key: keys.organization(movement.orgId),
        UpdateExpression: 'SET creditBalance = creditBalance + :amount, updatedAt = :now',
        ConditionExpression: movement.requireBalance
          ? 'attribute_exists(pk) AND creditBalance >= :needed'
          : 'attribute_exists(pk)',
        ExpressionAttributeValues: {
          ':amount': movement.amount,
          ':now': movement.createdAt,
          ...(movement.requireBalance ? { ':needed': -movement.amount } : {}),
        },
        ...(movement.requireBalance ? { ReturnValuesOnConditionCheckFailure: 'ALL_OLD' as const } : {}),
      },
    },
  ];
}

/** The balance a refused movement saw (from the failed balance update), or 0. */
export function balanceSeen(reason: { item?: Record<string, unknown> } | undefined): number {
  const balance = reason?.item?.creditBalance;
  return typeof balance === 'number' ? balance : 0;
}
