import { createHash } from 'node:crypto';
import {
  type DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  TransactWriteCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { isWellFormedId } from '../../core/ids.ts';
import type { Page } from '../../core/pagination/page.ts';
import { type ExecutionRecord, REVIEW_LIMITS, type ReviewRecord } from '../../core/reviews/model.ts';
import type {
  CreateOutcome,
  ExecutionEventLog,
  IdempotencyKeyed,
  IdempotencyRecord,
  ReviewStore,
} from '../../core/reviews/ports.ts';
import type { StreamEvent } from '../../core/reviews/stream.ts';
import type { ReviewSourceLookup } from '../../core/search/ports.ts';
import { recordMetric } from '../cloudwatch/metrics.ts';
import { cancellationReasons, isConditionFailure } from './errors.ts';
import { queryAll, queryPage, setExpression } from './query-page.ts';
import { eventsQuery, executionEventItem, storedEvent } from './review-event-store.ts';
import { entities, TABLE_DESIGN } from './table.ts';

type TransactItem = NonNullable<
  ConstructorParameters<typeof TransactWriteCommand>[0]['TransactItems']
>[number];

/** Concurrent transactions on the same key are cancelled with TransactionConflict: try again. */
const CONFLICT_RETRIES = 6;

/** Reviews, their executions and the executions' public events, with Idempotency-Keys. */
export class DynamoReviewStore implements ReviewStore, ExecutionEventLog, ReviewSourceLookup {
  private readonly client: DynamoDBDocumentClient;
  private readonly tableName: string;

  constructor(client: DynamoDBDocumentClient, tableName: string) {
    this.client = client;
    this.tableName = tableName;
  }

  private idempotencyPut(keyed: IdempotencyKeyed, resourceId: string): TransactItem {
    // The key itself is never stored: its digest names the record.
    const digest = createHash('sha256').update(keyed.key).digest('hex');
    return {
      Put: {
        TableName: this.tableName,
        Item: entities.idempotencyKey.format(
          {
            ...entities.idempotencyKey.key(keyed.orgId, keyed.scope, digest),
          },
          {
            requestHash: keyed.requestHash,
            resourceId,
            expiresAtEpoch: keyed.expiresAtEpoch,
          },
        ),
        // An expired record (TTL deletes late) no longer holds its key.
        ConditionExpression: 'attribute_not_exists(pk) OR expiresAtEpoch < :now',
        ExpressionAttributeValues: { ':now': Math.floor(Date.now() / 1000) },
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      },
    };
  }

  /** Runs a transaction whose first item is the idempotency record. */
  private async createOnce(items: TransactItem[]): Promise<CreateOutcome> {
    for (let attempt = 0; ; attempt++) {
      try {
        await this.client.send(new TransactWriteCommand({ TransactItems: items }));
        return { created: true };
      } catch (error) {
        const reasons = cancellationReasons(error);
        if (!reasons) throw error;
        const held = reasons[0];
        if (held?.failed && held.item)
          return {
            created: false,
            existing: {
              requestHash: String(held.item.requestHash),
              resourceId: String(held.item.resourceId),
            } satisfies IdempotencyRecord,
          };
        const conflict = reasons.some((reason) => reason.code === 'TransactionConflict');
        if (!conflict || attempt >= CONFLICT_RETRIES) throw error;
        await new Promise((resolve) => setTimeout(resolve, 20 * 2 ** attempt + Math.random() * 20));
      }
    }
  }

  async createReview(review: ReviewRecord, idempotency: IdempotencyKeyed): Promise<CreateOutcome> {
    return this.createOnce([
      this.idempotencyPut(idempotency, review.id),
      {
        Put: {
          TableName: this.tableName,
          Item: entities.review.format(
            {
              ...entities.review.key(review.orgId, review.id),
              ...entities.review.indexes.byParent(review.projectId, review.id),
            },
            {
              ...review,
            },
          ),
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
    ]);
  }

  async getReview(orgId: string, reviewId: string): Promise<ReviewRecord | null> {
    const result = await this.client.send(
      new GetCommand({
        TableName: this.tableName,
        Key: entities.review.key(orgId, reviewId),
        ConsistentRead: true,
      }),
    );
    return result.Item ? entities.review.parse(result.Item) : null;
  }

  async reviewSources(orgId: string, projectId: string, reviewId: string): Promise<string[] | null> {
    if (!isWellFormedId('rev', reviewId)) return null;
    const review = await this.getReview(orgId, reviewId);
    if (!review || review.projectId !== projectId) return null;
    return [...((review as { sourceUris?: Set<string> }).sourceUris ?? [])].sort();
  }

  async addReviewedSources(orgId: string, reviewId: string, sourceUris: string[]): Promise<void> {
    if (sourceUris.length === 0) return;
    await this.client
      .send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: entities.review.key(orgId, reviewId),
          UpdateExpression: 'ADD sourceUris :uris',
          // A review remembers its first sources, up to the limit (a search narrows to them).
          ConditionExpression:
            'attribute_exists(pk) AND (attribute_not_exists(sourceUris) OR size(sourceUris) < :max)',
          ExpressionAttributeValues: { ':uris': new Set(sourceUris), ':max': REVIEW_LIMITS.reviewedSources },
        }),
      )
      .catch((error: Error) => {
        if (!isConditionFailure(error)) throw error;
      });
  }

  async listReviews(
    orgId: string,
    projectId: string,
    options: { limit: number; position: unknown | null },
  ): Promise<Page<ReviewRecord>> {
    const index = TABLE_DESIGN.indexes.byParent;
    return queryPage(
      this.client,
      {
        TableName: this.tableName,
        IndexName: index.name,
        KeyConditionExpression: `${index.partitionKey} = :pk`,
        // The project index is keyed by project id only: keep the caller's organization.
        FilterExpression: 'orgId = :org',
        ExpressionAttributeValues: {
          ':pk': entities.review.indexes.byParent(projectId, '').gsi1pk,
          ':org': orgId,
        },
        ScanIndexForward: false,
      },
      {
        ...options,
        keyOf: (item) => ({ pk: item.pk, sk: item.sk, gsi1pk: item.gsi1pk, gsi1sk: item.gsi1sk }),
        map: (item) => entities.review.parse(item),
      },
    );
  }

  async createExecution(execution: ExecutionRecord, idempotency: IdempotencyKeyed): Promise<CreateOutcome> {
    return this.createOnce([
      this.idempotencyPut(idempotency, execution.id),
      {
        Put: {
          TableName: this.tableName,
          Item: entities.reviewExecution.format(
            {
              ...entities.reviewExecution.key(execution.orgId, execution.id),
            },
            {
              ...execution,
            },
          ),
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
      {
        Update: {
          TableName: this.tableName,
          Key: entities.review.key(execution.orgId, execution.reviewId),
          UpdateExpression: 'ADD executionCount :one SET lastExecution = :last, updatedAt = :now',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeValues: {
            ':one': 1,
            ':last': { id: execution.id, status: execution.status, createdAt: execution.createdAt },
            ':now': execution.createdAt,
          },
        },
      },
    ]);
  }

  async getExecution(orgId: string, executionId: string): Promise<ExecutionRecord | null> {
    const result = await this.client.send(
      new GetCommand({
        TableName: this.tableName,
        Key: entities.reviewExecution.key(orgId, executionId),
        ConsistentRead: true,
      }),
    );
    return result.Item ? entities.reviewExecution.parse(result.Item) : null;
  }

  async updateExecution(
    execution: Pick<ExecutionRecord, 'orgId' | 'id' | 'reviewId'>,
    from: ExecutionRecord['status'][],
    changes: Partial<ExecutionRecord>,
  ): Promise<boolean> {
    const now = new Date().toISOString();
    const set = setExpression({ ...changes });
    const fromValues = Object.fromEntries(from.map((status, index) => [`:from${index}`, status]));
    try {
      const { Attributes } = await this.client.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: entities.reviewExecution.key(execution.orgId, execution.id),
          UpdateExpression: set.expression,
          ConditionExpression: `#st IN (${Object.keys(fromValues).join(', ')})`,
          ExpressionAttributeNames: { ...set.names, '#st': 'status' },
          ExpressionAttributeValues: { ...set.values, ...fromValues },
          ...(changes.completedAt ? { ReturnValues: 'ALL_OLD' as const } : {}),
        }),
      );
      // The execution ended here (its status moved from queued or running): how long the answer took.
      if (changes.completedAt && typeof Attributes?.createdAt === 'string')
        recordMetric('AnswerLatency', Date.parse(changes.completedAt) - Date.parse(Attributes.createdAt));
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
    if (changes.status) {
      // The review's summary follows its latest execution only.
      await this.client
        .send(
          new UpdateCommand({
            TableName: this.tableName,
            Key: entities.review.key(execution.orgId, execution.reviewId),
            UpdateExpression: 'SET lastExecution.#st = :status, updatedAt = :now',
            ConditionExpression: 'lastExecution.id = :id',
            ExpressionAttributeNames: { '#st': 'status' },
            ExpressionAttributeValues: { ':status': changes.status, ':now': now, ':id': execution.id },
          }),
        )
        .catch((error: Error) => {
          if (!isConditionFailure(error)) throw error;
        });
    }
    return true;
  }

  async setTitleOnce(orgId: string, reviewId: string, title: string, executionId: string): Promise<boolean> {
    try {
      await this.client.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: entities.review.key(orgId, reviewId),
          UpdateExpression: 'SET title = :title, titleExecutionId = :execution, updatedAt = :now',
          ConditionExpression: 'attribute_exists(pk) AND (attribute_not_exists(title) OR title = :none)',
          ExpressionAttributeValues: {
            ':title': title,
            ':execution': executionId,
            ':now': new Date().toISOString(),
            ':none': null,
          },
        }),
      );
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  }

  async hasEvent(executionId: string, eventKey: string): Promise<boolean> {
    const result = await this.client.send(
      new GetCommand({
        TableName: this.tableName,
        Key: entities.executionEventKey.key(executionId, eventKey),
        ConsistentRead: true,
      }),
    );
    return result.Item !== undefined;
  }

  async append(
    execution: Pick<ExecutionRecord, 'orgId' | 'id'>,
    event: Omit<StreamEvent, 'sequence'>,
    eventKey: string | null,
  ): Promise<number | null> {
    // The sequence is allocated atomically, by twos (odd numbers from 1): the even number after an
    // event is never an event's, and stream.ready takes it (core/reviews/stream.ts). The key's
    // condition below refuses an event written already (a retried step), whose number is then a gap.
    const allocated = await this.client.send(
      new UpdateCommand({
        TableName: this.tableName,
        Key: entities.reviewExecution.key(execution.orgId, execution.id),
        UpdateExpression: 'ADD nextSequence :two',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':two': 2 },
        ReturnValues: 'UPDATED_OLD',
      }),
    );
    const sequence = Number(allocated.Attributes?.nextSequence ?? 0);
    const item = executionEventItem({ ...event, sequence } as StreamEvent);
    if (!eventKey) {
      await this.client.send(new PutCommand({ TableName: this.tableName, Item: item }));
      return sequence;
    }
    try {
      await this.client.send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Put: {
                TableName: this.tableName,
                Item: entities.executionEventKey.format(
                  {
                    ...entities.executionEventKey.key(execution.id, eventKey),
                  },
                  {
                    sequence,
                  },
                ),
                ConditionExpression: 'attribute_not_exists(pk)',
              },
            },
            { Put: { TableName: this.tableName, Item: item } },
          ],
        }),
      );
      return sequence;
    } catch (error) {
      if (cancellationReasons(error)?.[0]?.failed) return null;
      throw error;
    }
  }

  async events(executionId: string, after: number): Promise<StreamEvent[]> {
    const items = await queryAll(this.client, eventsQuery(this.tableName, executionId, after));
    return items.map(storedEvent);
  }
}
