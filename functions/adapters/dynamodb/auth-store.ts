import { type DynamoDBDocumentClient, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { LRUCache } from 'lru-cache';
import type { ApiKeyRecord } from '../../core/auth/model.ts';
import type { ApiKeyStore, RateLimiter, SessionRecord, SessionStore } from '../../core/auth/ports.ts';
import type { Page } from '../../core/pagination/page.ts';
import { isConditionFailure, unmarshallIfNeeded } from './errors.ts';
import { queryCount, queryPage } from './query-page.ts';
import { entities, partitions, TABLE_DESIGN } from './table.ts';

export class DynamoApiKeyStore implements ApiKeyStore {
  private readonly client: DynamoDBDocumentClient;
  private readonly tableName: string;

  constructor(client: DynamoDBDocumentClient, tableName: string) {
    this.client = client;
    this.tableName = tableName;
  }

  async put(record: ApiKeyRecord): Promise<void> {
    await this.client.send(
      new PutCommand({
        TableName: this.tableName,
        Item: entities.apiKey.format(
          {
            ...entities.apiKey.key(record.id),
            ...entities.apiKey.indexes.byParent(record.orgId, record.id, record.createdAt),
          },
          {
            ...record,
          },
        ),
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
  }

  async get(keyId: string): Promise<ApiKeyRecord | null> {
    // Strongly consistent so a revocation is seen by the very next request.
    const result = await this.client.send(
      new GetCommand({ TableName: this.tableName, Key: entities.apiKey.key(keyId), ConsistentRead: true }),
    );
    return result.Item ? entities.apiKey.parse(result.Item) : null;
  }

  private keysQuery(orgId: string) {
    const index = TABLE_DESIGN.indexes.byParent;
    return {
      TableName: this.tableName,
      IndexName: index.name,
      KeyConditionExpression: `${index.partitionKey} = :pk`,
      ExpressionAttributeValues: { ':pk': partitions.apiKeysOfOrganization(orgId) },
      ScanIndexForward: false,
    };
  }

  async listByOrg(
    orgId: string,
    options: { limit: number; position: unknown | null },
  ): Promise<Page<ApiKeyRecord>> {
    return queryPage(this.client, this.keysQuery(orgId), {
      ...options,
      keyOf: (item) => ({ pk: item.pk, sk: item.sk, gsi1pk: item.gsi1pk, gsi1sk: item.gsi1sk }),
      map: entities.apiKey.parse,
    });
  }

  async countByOrg(orgId: string): Promise<number> {
    return queryCount(this.client, this.keysQuery(orgId));
  }

  async revoke(orgId: string, keyId: string, at: string): Promise<ApiKeyRecord | null> {
    try {
      const result = await this.client.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: entities.apiKey.key(keyId),
          UpdateExpression: 'SET revokedAt = :at',
          ConditionExpression:
            'attribute_exists(pk) AND orgId = :org AND (attribute_not_exists(revokedAt) OR attribute_type(revokedAt, :null))',
          ExpressionAttributeValues: { ':at': at, ':org': orgId, ':null': 'NULL' },
          ReturnValues: 'ALL_NEW',
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        }),
      );
      return result.Attributes ? entities.apiKey.parse(result.Attributes) : null;
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
      // Already revoked: revoking again keeps the first revocation time. Another org's key: absent.
      const old = (error as { Item?: Record<string, unknown> }).Item;
      const record = old ? entities.apiKey.parse(unmarshallIfNeeded(old)) : null;
      return record && record.orgId === orgId ? record : null;
    }
  }

  async recordUse(keyId: string, at: string, ip: string): Promise<void> {
    await this.client.send(
      new UpdateCommand({
        TableName: this.tableName,
        Key: entities.apiKey.key(keyId),
        UpdateExpression: 'SET lastUsedAt = :at, lastUsedIp = :ip',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':at': at, ':ip': ip },
      }),
    );
  }
}

export class DynamoSessionStore implements SessionStore {
  private readonly client: DynamoDBDocumentClient;
  private readonly tableName: string;

  constructor(client: DynamoDBDocumentClient, tableName: string) {
    this.client = client;
    this.tableName = tableName;
  }

  async get(tokenHash: string): Promise<SessionRecord | null> {
    const result = await this.client.send(
      new GetCommand({
        TableName: this.tableName,
        Key: entities.session.key(tokenHash),
        ConsistentRead: true,
      }),
    );
    if (!result.Item) return null;
    return {
      orgId: String(result.Item.orgId),
      userId: String(result.Item.userId),
      expiresAt: String(result.Item.expiresAt),
    };
  }

  async put(tokenHash: string, session: SessionRecord): Promise<void> {
    await this.client.send(
      new PutCommand({
        TableName: this.tableName,
        Item: entities.session.format(
          {
            ...entities.session.key(tokenHash),
            [TABLE_DESIGN.ttlAttribute]: Math.floor(Date.parse(session.expiresAt) / 1000),
          },
          session,
        ),
      }),
    );
  }
}

/** The part of a key's per-minute limit a function takes from the table at once (at least one request). */
export const leaseSize = (limitPerMinute: number) => Math.max(1, Math.floor(limitPerMinute / 50));

/**
 * Fixed one-minute windows counted with an atomic ADD; old windows expire through TTL. A function
 * takes requests from a window a lease at a time (`leaseSize`: a fiftieth of the limit) and counts
 * them down in its memory, so most requests cost no write. The table never grants more than the limit
 * in a window; a lease a function leaves unused when the window ends is lost to the key, so a key
 * served by many functions at once may be refused up to (functions - 1) x (lease - 1) requests short
 * of its limit in a minute. A limit under 100 leases one request at a time: every request is counted in
 * the table, as before leases.
 */
export class DynamoRateLimiter implements RateLimiter {
  private readonly client: DynamoDBDocumentClient;
  private readonly tableName: string;
  private readonly leases = new LRUCache<string, { windowStart: number; left: number }>({ max: 10_000 });

  constructor(client: DynamoDBDocumentClient, tableName: string) {
    this.client = client;
    this.tableName = tableName;
  }

  async hit(subject: string, limitPerMinute: number): Promise<number | null> {
    const now = Date.now();
    const windowStart = Math.floor(now / 60_000) * 60_000;
    const lease = this.leases.get(subject);
    if (lease && lease.windowStart === windowStart && lease.left > 0) {
      lease.left--;
      return null;
    }
    const take = leaseSize(limitPerMinute);
    const result = await this.client.send(
      new UpdateCommand({
        TableName: this.tableName,
        Key: entities.rateWindow.key(subject, windowStart),
        UpdateExpression: 'ADD requestCount :take SET #ttl = if_not_exists(#ttl, :ttl)',
        ExpressionAttributeNames: { '#ttl': TABLE_DESIGN.ttlAttribute },
        ExpressionAttributeValues: { ':take': take, ':ttl': Math.floor(windowStart / 1000) + 120 },
        ReturnValues: 'UPDATED_NEW',
      }),
    );
    const count = Number(result.Attributes?.requestCount ?? 0);
    // What this lease got of the window's limit: the part still free before it took its share.
    const granted = Math.max(0, Math.min(take, limitPerMinute - (count - take)));
    if (granted > 0) {
      this.leases.set(subject, { windowStart, left: granted - 1 });
      return null;
    }
    this.leases.delete(subject);
    return Math.max(1, Math.ceil((windowStart + 60_000 - now) / 1000));
  }
}
