import { type DynamoDBDocumentClient, GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { OwnedExecution, ReviewEventLog, StreamEvent } from '../../core/reviews/stream.ts';
import { entities } from './table.ts';

/**
 * A stored event: its JSON as one string attribute (`eventJson`: read and parsed whole, several times
 * faster to replay than a nested map); rows written before hold the map (`event`).
 */
export function executionEventItem(event: StreamEvent) {
  return entities.executionEvent.format(
    {
      ...entities.executionEvent.key(event.executionId, event.sequence),
    },
    {
      eventJson: JSON.stringify(event),
    },
  );
}

export function storedEvent(item: Record<string, unknown>): StreamEvent {
  return typeof item.eventJson === 'string'
    ? (JSON.parse(item.eventJson) as StreamEvent)
    : (item.event as StreamEvent);
}

/** The query of an execution's events with a sequence greater than `after`, only the event read back. */
export function eventsQuery(tableName: string, executionId: string, after: number) {
  return {
    TableName: tableName,
    KeyConditionExpression: 'pk = :pk AND sk > :after',
    ExpressionAttributeValues: {
      ':pk': entities.executionEvent.key(executionId, 0).pk,
      // 'EVENT#' sorts before every stored event, so after = -1 replays from the first.
      ':after':
        after < 0 ? entities.executionEvent.prefix : entities.executionEvent.key(executionId, after).sk,
    },
    ConsistentRead: true,
    ProjectionExpression: 'eventJson, #event',
    ExpressionAttributeNames: { '#event': 'event' },
  };
}

/** Stored review executions and their public events, read by sequence. */
export class DynamoReviewEventStore implements ReviewEventLog {
  private readonly client: DynamoDBDocumentClient;
  private readonly tableName: string;

  constructor(client: DynamoDBDocumentClient, tableName: string) {
    this.client = client;
    this.tableName = tableName;
  }

  async getExecution(orgId: string, executionId: string): Promise<OwnedExecution | null> {
    const result = await this.client.send(
      new GetCommand({
        TableName: this.tableName,
        Key: entities.reviewExecution.key(orgId, executionId),
        ConsistentRead: true,
      }),
    );
    if (!result.Item) return null;
    // Read under the organization's own key: this is the ownership check the brand records.
    return {
      id: executionId,
      projectId: String(result.Item.projectId),
      reviewId: String(result.Item.reviewId),
      status: (result.Item.status as OwnedExecution['status'] | undefined) ?? 'queued',
    } as OwnedExecution;
  }

  async lastEvent(execution: OwnedExecution): Promise<StreamEvent | null> {
    const {
      KeyConditionExpression: _after,
      ExpressionAttributeValues,
      ...query
    } = eventsQuery(this.tableName, execution.id, -1);
    const result = await this.client.send(
      new QueryCommand({
        ...query,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :after)',
        ExpressionAttributeValues,
        ScanIndexForward: false,
        Limit: 1,
      }),
    );
    const [item] = result.Items ?? [];
    return item ? storedEvent(item) : null;
  }

  async eventsAfter(execution: OwnedExecution, after: number, limit: number): Promise<StreamEvent[]> {
    const result = await this.client.send(
      new QueryCommand({ ...eventsQuery(this.tableName, execution.id, after), Limit: limit }),
    );
    return (result.Items ?? []).map(storedEvent);
  }
}
