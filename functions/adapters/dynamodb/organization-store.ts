import { type DynamoDBDocumentClient, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { type PlanLookup, type PlanName, planOf } from '../../core/auth/plans.ts';
import { prefixQuery, queryAll } from './query-page.ts';
import { entities, ledgerEntryItem } from './table.ts';

export interface LedgerEntry {
  id: string;
  kind: string;
  amount: number;
  projectId: string | null;
  createdAt: string;
}

/** Organizations and their credit ledger. Organizations are created by the operator (locally: at first start). */
export class DynamoOrganizationStore implements PlanLookup {
  private readonly client: DynamoDBDocumentClient;
  private readonly tableName: string;

  constructor(client: DynamoDBDocumentClient, tableName: string) {
    this.client = client;
    this.tableName = tableName;
  }

  async create(org: {
    id: string;
    name: string;
    creditBalance: number;
    grantEntryId: string;
    plan?: PlanName;
  }): Promise<void> {
    const now = new Date().toISOString();
    await this.client.send(
      new PutCommand({
        TableName: this.tableName,
        Item: entities.organization.format(
          {
            ...entities.organization.key(org.id),
          },
          {
            id: org.id,
            name: org.name,
            creditBalance: org.creditBalance,
            plan: org.plan ?? 'standard',
            createdAt: now,
            updatedAt: now,
          },
        ),
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
    await this.client.send(
      new PutCommand({
        TableName: this.tableName,
        Item: ledgerEntryItem({
          orgId: org.id,
          id: org.grantEntryId,
          kind: 'grant',
          amount: org.creditBalance,
          createdAt: now,
        }),
      }),
    );
  }

  async planOf(orgId: string): Promise<PlanName> {
    const result = await this.client.send(
      new GetCommand({
        TableName: this.tableName,
        Key: entities.organization.key(orgId),
        ConsistentRead: true,
      }),
    );
    return planOf(result.Item?.plan);
  }

  async balance(orgId: string): Promise<number | null> {
    const result = await this.client.send(
      new GetCommand({
        TableName: this.tableName,
        Key: entities.organization.key(orgId),
        ConsistentRead: true,
      }),
    );
    return result.Item ? Number(result.Item.creditBalance) : null;
  }

  async ledger(orgId: string): Promise<LedgerEntry[]> {
    const items = await queryAll(this.client, {
      ...prefixQuery(this.tableName, entities.organization.key(orgId).pk, entities.ledgerEntry.prefix),
      ConsistentRead: true,
    });
    return items.map((item) => ({
      id: String(item.id),
      kind: String(item.kind),
      amount: Number(item.amount),
      projectId: typeof item.projectId === 'string' ? item.projectId : null,
      createdAt: String(item.createdAt),
    }));
  }
}
