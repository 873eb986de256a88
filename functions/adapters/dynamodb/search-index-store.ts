import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, type DynamoDBDocumentClient, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { LRUCache } from 'lru-cache';
import type { SearchIndexState } from '../../core/content/model.ts';
import type { IndexLock, SearchIndexStateStore } from '../../core/search/ports.ts';
import { changeDocument, DOCUMENTS_VERSION } from './project-totals.ts';
import { prefixQuery, queryAll } from './query-page.ts';
import { entities, partitions } from './table.ts';

type DocumentIndexState = Awaited<ReturnType<SearchIndexStateStore['documentIndexStates']>>[number];

/**
 * The search index state of documents, on their rows. A function keeps each project's states with the
 * `documentsVersion` of its counters item they were read at (every change of a document row adds one to
 * it, in the same transaction: `changeDocument`): a search reads that one counter, and the rows again
 * only when it moved.
 */
export class DynamoSearchIndexStates implements SearchIndexStateStore {
  private readonly client: DynamoDBDocumentClient;
  private readonly tableName: string;
  private readonly kept = new LRUCache<string, { version: number; states: DocumentIndexState[] }>({
    max: 200,
  });

  constructor(client: DynamoDBDocumentClient, tableName: string) {
    this.client = client;
    this.tableName = tableName;
  }

  async setSearchIndexState(projectId: string, documentId: string, state: SearchIndexState) {
    // The state and the project's source counters change together.
    const stored = await changeDocument(this.client, this.tableName, projectId, documentId, (current) =>
      current ? { ...current, searchIndex: state } : null,
    );
    if (!stored) throw new ConditionalCheckFailedException({ message: 'No such document', $metadata: {} });
  }

  async documentIndexStates(projectId: string): Promise<DocumentIndexState[]> {
    const { Item } = await this.client.send(
      new GetCommand({
        TableName: this.tableName,
        Key: entities.projectCounters.key(projectId),
        ProjectionExpression: '#version',
        ExpressionAttributeNames: { '#version': DOCUMENTS_VERSION },
        ConsistentRead: true,
      }),
    );
    const version = Number(Item?.[DOCUMENTS_VERSION] ?? 0);
    const kept = this.kept.get(projectId);
    if (kept?.version === version) return kept.states;
    // Read after the version: rows newer than it are kept under the older version, and read again.
    const states = await this.readStates(projectId);
    this.kept.set(projectId, { version, states });
    return states;
  }

  private async readStates(projectId: string): Promise<DocumentIndexState[]> {
    const items = await queryAll(this.client, {
      ...prefixQuery(this.tableName, partitions.project(projectId), entities.document.prefix),
      ProjectionExpression: 'documentId, fileId, fileName, jobId, searchIndex',
    });
    return items.map((item) => ({
      documentId: String(item.documentId),
      fileId: String(item.fileId),
      fileName: String(item.fileName ?? ''),
      jobId: String(item.jobId),
      // Rows written before search existed have no state: nothing of them is indexed.
      state: (item.searchIndex as SearchIndexState | undefined) ?? {
        status: 'pending' as const,
        sourceCount: 0,
        passageCount: 0,
        indexedAt: null,
        error: null,
      },
    }));
  }
}

/** A lease in the table: a conditional put that succeeds when the lock is free or expired. */
export class DynamoIndexLock implements IndexLock {
  private readonly client: DynamoDBDocumentClient;
  private readonly tableName: string;

  constructor(client: DynamoDBDocumentClient, tableName: string) {
    this.client = client;
    this.tableName = tableName;
  }

  async acquire(projectId: string, holder: string, leaseMs: number) {
    const now = Date.now();
    try {
      await this.client.send(
        new PutCommand({
          TableName: this.tableName,
          Item: {
            ...entities.indexLock.key(projectId),
            entity: 'indexLock',
            holder,
            expiresAtMs: now + leaseMs,
          },
          ConditionExpression: 'attribute_not_exists(pk) OR expiresAtMs < :now OR holder = :holder',
          ExpressionAttributeValues: { ':now': now, ':holder': holder },
        }),
      );
      return true;
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return false;
      throw error;
    }
  }

  async release(projectId: string, holder: string) {
    try {
      await this.client.send(
        new DeleteCommand({
          TableName: this.tableName,
          Key: entities.indexLock.key(projectId),
          ConditionExpression: 'holder = :holder',
          ExpressionAttributeValues: { ':holder': holder },
        }),
      );
    } catch (error) {
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
    }
  }
}
