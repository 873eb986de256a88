import { type DynamoDBDocumentClient, GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { ENTITY_VERSION, keys } from './table.ts';

export interface LedgerEntry {
  id: string;
  kind: string;
  amount: number;
  projectId: string | null;
  createdAt: string;
}

/** Organizations and their credit ledger. Organizations are created by the operator (locally: at first start). */
export class DynamoOrganizationStore {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async create(org: {
    id: string;
    name: string;
    creditBalance: number;
    grantEntryId: string;
  }): Promise<void> {
    const now = new Date().toISOString();
    await this.client.send(
      new PutCommand({
        TableName: this.tableName,
        Item: {
          ...keys.organization(org.id),
          entity: 'organization',
          v: ENTITY_VERSION.organization,
          id: org.id,
          name: org.name,
          creditBalance: org.creditBalance,
          createdAt: now,
          updatedAt: now,
        },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
    await this.client.send(
      new PutCommand({
        TableName: this.tableName,
        Item: {
          ...keys.ledgerEntry(org.id, org.grantEntryId),
          entity: 'ledgerEntry',
          v: ENTITY_VERSION.ledgerEntry,
          id: org.grantEntryId,
          orgId: org.id,
          kind: 'grant',
          amount: org.creditBalance,
          createdAt: now,
        },
      }),
    );
  }

  async balance(orgId: string): Promise<number | null> {
    const result = await this.client.send(
      new GetCommand({ TableName: this.tableName, Key: keys.organization(orgId), ConsistentRead: true }),
    );
    return result.Item ? Number(result.Item.creditBalance) : null;
  }

  async ledger(orgId: string): Promise<LedgerEntry[]> {
    const entries: LedgerEntry[] = [];
    let startKey: Record<string, unknown> | undefined;
    do {
      const result = await this.client.send(
        new QueryCommand({
          TableName: this.tableName,
          KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
          ExpressionAttributeValues: { ':pk': keys.organization(orgId).pk, ':prefix': keys.ledgerPrefix },
          ConsistentRead: true,
          ExclusiveStartKey: startKey,
        }),
      );
      for (const item of result.Items ?? []) {
        entries.push({
          id: String(item.id),
          kind: String(item.kind),
          amount: Number(item.amount),
          projectId: typeof item.projectId === 'string' ? item.projectId : null,
          createdAt: String(item.createdAt),
        });
      }
      startKey = result.LastEvaluatedKey;
    } while (startKey);
    return entries;
  }
}
