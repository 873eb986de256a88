import {
  type DynamoDBDocumentClient,
  TransactWriteCommand,
  type TransactWriteCommandInput,
} from '@aws-sdk/lib-dynamodb';
import type { CreditLedger } from '../../core/pipeline/ports.ts';
import { recordMetric } from '../cloudwatch/metrics.ts';
import { cancellationReasons } from './errors.ts';
import { entities, ledgerEntryItem } from './table.ts';

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
        Key: entities.organization.key(movement.orgId),
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

/**
 * Job credits: a reservation moves credits out of the balance at preflight; settlement keeps the
 * debit and returns the rest. Ledger entries have ids derived from the job, so each happens once.
 */
export class DynamoCreditLedger implements CreditLedger {
  private readonly client: DynamoDBDocumentClient;
  private readonly tableName: string;

  constructor(client: DynamoDBDocumentClient, tableName: string) {
    this.client = client;
    this.tableName = tableName;
  }

  async reserve(orgId: string, jobId: string, credits: number) {
    try {
      await this.client.send(
        new TransactWriteCommand({
          TransactItems: creditMovementItems(this.tableName, {
            orgId,
            entryId: `led_reserve_${jobId}`,
            kind: 'job_reservation',
            amount: -credits,
            createdAt: new Date().toISOString(),
            requireBalance: true,
            details: { jobId },
          }),
        }),
      );
      return { ok: true as const };
    } catch (error) {
      const reasons = cancellationReasons(error);
      if (!reasons) throw error;
      if (reasons[0]?.failed) return { ok: true as const }; // reserved by an earlier attempt
      if (reasons[1]?.failed) return { ok: false as const, available: balanceSeen(reasons[1]) };
      throw error;
    }
  }

  async settle(orgId: string, jobId: string, reserved: number, debit: number) {
    try {
      await this.client.send(
        new TransactWriteCommand({
          TransactItems: creditMovementItems(this.tableName, {
            orgId,
            entryId: `led_settle_${jobId}`,
            kind: 'job_settlement',
            amount: Math.max(0, reserved - debit),
            createdAt: new Date().toISOString(),
            requireBalance: false,
            details: { debited: Math.min(debit, reserved), jobId },
          }),
        }),
      );
      recordMetric('CreditsDebited', Math.min(debit, reserved));
    } catch (error) {
      if (cancellationReasons(error)?.[0]?.failed) return; // settled by an earlier attempt
      throw error;
    }
  }
}
