import { DeleteCommand, type DynamoDBDocumentClient, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { WebhookRecord } from '../../core/webhooks/model.ts';
import type { WebhookStore } from '../../core/webhooks/webhooks.ts';
import { entities } from './table.ts';

export class DynamoWebhookStore implements WebhookStore {
  private readonly client: DynamoDBDocumentClient;
  private readonly tableName: string;

  constructor(client: DynamoDBDocumentClient, tableName: string) {
    this.client = client;
    this.tableName = tableName;
  }

  async get(orgId: string): Promise<WebhookRecord | null> {
    const result = await this.client.send(
      new GetCommand({ TableName: this.tableName, Key: entities.webhook.key(orgId), ConsistentRead: true }),
    );
    return result.Item ? entities.webhook.parse(result.Item) : null;
  }

  async put(record: WebhookRecord): Promise<void> {
    await this.client.send(
      new PutCommand({
        TableName: this.tableName,
        Item: entities.webhook.format(
          {
            ...entities.webhook.key(record.orgId),
          },
          {
            ...record,
          },
        ),
      }),
    );
  }

  async delete(orgId: string): Promise<boolean> {
    const result = await this.client.send(
      new DeleteCommand({
        TableName: this.tableName,
        Key: entities.webhook.key(orgId),
        ReturnValues: 'ALL_OLD',
      }),
    );
    return result.Attributes !== undefined;
  }
}
