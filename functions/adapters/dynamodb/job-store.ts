import {
  type DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  QueryCommand,
  TransactWriteCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import type {
  FileStatus,
  JobFileRecord,
  JobRecord,
  JobStatus,
  OwnedJob,
  OwnedJobRef,
} from '../../core/jobs/model.ts';
import { ACTIVE_JOB_STATUSES } from '../../core/jobs/model.ts';
import type { DocumentLookup, JobListFilter, JobStore } from '../../core/jobs/ports.ts';
import { isActiveJobStatus, OPEN_JOB_STATUSES } from '../../core/jobs/statuses.ts';
import type { Page } from '../../core/pagination/page.ts';
import type { LatestJobLookup, LatestJobSummary } from '../../core/projects/ports.ts';
import { batchWriteAll } from './batch-write.ts';
import { cancellationReasons, isConditionFailure } from './errors.ts';
import { itemKey, queryAll, queryCount, queryPage, setExpression, wholeItems } from './query-page.ts';
import { entities, openJobsPartition, TABLE_DESIGN } from './table.ts';

export class DynamoJobStore implements JobStore, DocumentLookup, LatestJobLookup {
  private readonly client: DynamoDBDocumentClient;
  private readonly tableName: string;

  constructor(client: DynamoDBDocumentClient, tableName: string) {
    this.client = client;
    this.tableName = tableName;
  }

  async create(job: JobRecord): Promise<void> {
    await this.client.send(
      new PutCommand({
        TableName: this.tableName,
        Item: entities.job.format(
          {
            ...entities.job.key(job.orgId, job.id),
            ...entities.job.indexes.byParent(job.projectId, job.id),
            ...(OPEN_JOB_STATUSES.includes(job.status)
              ? entities.job.indexes.openJobsByExpiry(job.expiresAt, job.id)
              : {}),
          },
          {
            ...job,
          },
        ),
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
  }

  async createWithFiles(job: JobRecord, files: JobFileRecord[]): Promise<void> {
    await batchWriteAll(
      this.client,
      this.tableName,
      files.map((file) => ({
        PutRequest: {
          Item: entities.jobFile.format(
            {
              ...entities.jobFile.key(job.id, file.id),
            },
            {
              ...file,
            },
          ),
        },
      })),
    );
    await this.create(job);
  }

  async get(orgId: string, jobId: string): Promise<OwnedJob | null> {
    const result = await this.client.send(
      new GetCommand({
        TableName: this.tableName,
        Key: entities.job.key(orgId, jobId),
        ConsistentRead: true,
      }),
    );
    // Read under the organization's own key: this is the ownership check the brand records.
    return result.Item ? (entities.job.parse(result.Item) as OwnedJob) : null;
  }

  async list(
    orgId: string,
    filter: JobListFilter,
    options: { limit: number; position: unknown | null },
  ): Promise<Page<OwnedJob>> {
    const filters: string[] = [];
    const names: Record<string, string> = {};
    const values: Record<string, unknown> = {};
    if (filter.status) {
      filters.push('#status = :status');
      names['#status'] = 'status';
      values[':status'] = filter.status;
    }
    if (filter.activeOnly) {
      const placeholders = ACTIVE_JOB_STATUSES.map((status, index) => {
        values[`:active${index}`] = status;
        return `:active${index}`;
      });
      filters.push(`#status IN (${placeholders.join(', ')})`);
      names['#status'] = 'status';
    }
    const index = TABLE_DESIGN.indexes.byParent;
    const byProject = filter.projectId !== undefined;
    if (byProject) {
      // The project index spans organizations' keys only by project id: keep the caller's org.
      filters.push('orgId = :org');
      values[':org'] = orgId;
    }
    const keyCondition = byProject
      ? {
          KeyConditionExpression: `${index.partitionKey} = :pk`,
          ':pk': entities.job.indexes.byParent(filter.projectId as string, '').gsi1pk,
        }
      : {
          KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
          ':pk': entities.job.key(orgId, '').pk,
        };
    return queryPage(
      this.client,
      {
        TableName: this.tableName,
        ...(byProject ? { IndexName: index.name } : {}),
        KeyConditionExpression: keyCondition.KeyConditionExpression,
        ...(filters.length ? { FilterExpression: filters.join(' AND ') } : {}),
        ...(Object.keys(names).length ? { ExpressionAttributeNames: names } : {}),
        ExpressionAttributeValues: {
          ...values,
          ':pk': keyCondition[':pk'],
          ...(byProject ? {} : { ':prefix': entities.job.prefix }),
        },
        ScanIndexForward: false,
      },
      {
        ...options,
        keyOf: (item) =>
          byProject
            ? { pk: item.pk, sk: item.sk, gsi1pk: item.gsi1pk, gsi1sk: item.gsi1sk }
            : { pk: item.pk, sk: item.sk },
        // Every item is of the caller's organization (its key, or the orgId filter on the index).
        map: (item) => entities.job.parse(item) as OwnedJob,
      },
    );
  }

  private fileQuery(jobId: string, status?: FileStatus) {
    return {
      TableName: this.tableName,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ...(status
        ? { FilterExpression: '#status = :status', ExpressionAttributeNames: { '#status': 'status' } }
        : {}),
      ExpressionAttributeValues: {
        ':pk': entities.jobFile.key(jobId, '').pk,
        ':prefix': entities.jobFile.prefix,
        ...(status ? { ':status': status } : {}),
      },
      ConsistentRead: true,
    };
  }

  async files(
    job: OwnedJobRef,
    options: { limit: number; position: unknown | null; status?: FileStatus },
  ): Promise<Page<JobFileRecord>> {
    return queryPage(this.client, this.fileQuery(job.id, options.status), {
      limit: options.limit,
      position: options.position,
      keyOf: (item) => ({ pk: item.pk, sk: item.sk }),
      map: (item) => entities.jobFile.parse(item),
    });
  }

  async countFiles(job: OwnedJobRef, status?: FileStatus): Promise<number> {
    return queryCount(this.client, this.fileQuery(job.id, status));
  }

  async allFiles(job: OwnedJobRef): Promise<JobFileRecord[]> {
    return (await queryAll(this.client, this.fileQuery(job.id))).map((item) => entities.jobFile.parse(item));
  }

  async getFile(job: OwnedJobRef, fileId: string): Promise<JobFileRecord | null> {
    const result = await this.client.send(
      new GetCommand({
        TableName: this.tableName,
        Key: entities.jobFile.key(job.id, fileId),
        ConsistentRead: true,
      }),
    );
    return result.Item ? entities.jobFile.parse(result.Item) : null;
  }

  async addFiles(
    job: JobRecord,
    files: JobFileRecord[],
    limits: { maxDeclaredBytes: number; maxFiles: number },
  ): Promise<'added' | 'limit_exceeded' | 'not_accepting'> {
    // A transaction holds 100 items: the job counter update plus at most 99 files, so each chunk
    // adds its own files and their counts together (a failed chunk leaves nothing half-counted).
    for (let start = 0; start < files.length; start += 50) {
      const chunk = files.slice(start, start + 50);
      const bytes = chunk.reduce((sum, file) => sum + file.fileSize, 0);
      try {
        await this.client.send(
          new TransactWriteCommand({
            TransactItems: [
              {
                Update: {
                  TableName: this.tableName,
                  Key: entities.job.key(job.orgId, job.id),
                  UpdateExpression: 'ADD declaredBytes :bytes, fileCount :count SET updatedAt = :now',
                  ConditionExpression:
                    '#status IN (:awaiting, :uploading) AND declaredBytes <= :bytesLeft AND fileCount <= :filesLeft',
                  ExpressionAttributeNames: { '#status': 'status' },
                  ExpressionAttributeValues: {
                    ':bytes': bytes,
                    ':count': chunk.length,
                    ':now': new Date().toISOString(),
                    ':awaiting': 'awaiting_uploads',
                    ':uploading': 'uploading',
                    ':bytesLeft': limits.maxDeclaredBytes - bytes,
                    ':filesLeft': limits.maxFiles - chunk.length,
                  },
                  ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
                },
              },
              ...chunk.map((file) => ({
                Put: {
                  TableName: this.tableName,
                  Item: entities.jobFile.format(
                    {
                      ...entities.jobFile.key(job.id, file.id),
                    },
                    {
                      ...file,
                    },
                  ),
                  ConditionExpression: 'attribute_not_exists(pk)',
                },
              })),
            ],
          }),
        );
      } catch (error) {
        const reasons = cancellationReasons(error);
        const jobReason = reasons?.[0];
        if (!jobReason?.failed) throw error;
        const status = jobReason.item?.status;
        return status === 'awaiting_uploads' || status === 'uploading' ? 'limit_exceeded' : 'not_accepting';
      }
    }
    return 'added';
  }

  async updateFile(file: JobFileRecord, changes: Partial<JobFileRecord>): Promise<void> {
    const set = setExpression({ ...changes, updatedAt: new Date().toISOString() });
    await this.client.send(
      new UpdateCommand({
        TableName: this.tableName,
        Key: entities.jobFile.key(file.jobId, file.id),
        UpdateExpression: set.expression,
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeNames: set.names,
        ExpressionAttributeValues: set.values,
      }),
    );
  }

  async transition(
    orgId: string,
    jobId: string,
    from: JobStatus[],
    to: JobStatus,
    changes: Partial<JobRecord> = {},
  ): Promise<boolean> {
    const set = setExpression({ ...changes, status: to, updatedAt: new Date().toISOString() });
    const fromValues = Object.fromEntries(from.map((status, index) => [`:from${index}`, status]));
    try {
      await this.client.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: entities.job.key(orgId, jobId),
          // A job that no longer accepts uploads leaves the expiry sweep's index.
          UpdateExpression: OPEN_JOB_STATUSES.includes(to)
            ? set.expression
            : `${set.expression} REMOVE gsi2pk, gsi2sk`,
          ConditionExpression: `#st IN (${Object.keys(fromValues).join(', ')})`,
          ExpressionAttributeNames: { ...set.names, '#st': 'status' },
          ExpressionAttributeValues: { ...set.values, ...fromValues },
        }),
      );
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  }

  async expiredOpenJobs(before: string, limit: number): Promise<OwnedJob[]> {
    const index = TABLE_DESIGN.indexes.openJobsByExpiry;
    const result = await this.client.send(
      new QueryCommand({
        TableName: this.tableName,
        IndexName: index.name,
        KeyConditionExpression: '#pk = :pk AND #sk < :before',
        ExpressionAttributeNames: { '#pk': index.partitionKey, '#sk': index.sortKey },
        ExpressionAttributeValues: { ':pk': openJobsPartition, ':before': before },
        Limit: limit,
      }),
    );
    // The index holds keys only: each job is read whole, and as it is now, from the table.
    const entries = result.Items ?? [];
    const jobs = await wholeItems(this.client, this.tableName, entries);
    return entries.flatMap((entry) => {
      const job = jobs.get(itemKey(entry));
      return job ? [entities.job.parse(job) as OwnedJob] : [];
    });
  }

  async update(orgId: string, jobId: string, changes: Partial<JobRecord>): Promise<void> {
    const set = setExpression({ ...changes, updatedAt: new Date().toISOString() });
    await this.client.send(
      new UpdateCommand({
        TableName: this.tableName,
        Key: entities.job.key(orgId, jobId),
        UpdateExpression: set.expression,
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeNames: set.names,
        ExpressionAttributeValues: set.values,
      }),
    );
  }

  async latestJob(orgId: string, projectId: string): Promise<LatestJobSummary | null> {
    const page = await this.list(orgId, { projectId }, { limit: 1, position: null });
    const job = page.items[0];
    if (!job) return null;
    return {
      job: {
        id: job.id,
        status: job.status,
        createdAt: job.createdAt,
        updatedAt: job.updatedAt,
        completedAt: job.completedAt,
        error: job.error,
      },
      // Nothing registered yet: the project is not processing anything (see LatestJobSummary).
      active: isActiveJobStatus(job.status) && job.status !== 'awaiting_uploads',
    };
  }

  async addProgress(orgId: string, jobId: string, pages: number): Promise<void> {
    const result = await this.client.send(
      new UpdateCommand({
        TableName: this.tableName,
        Key: entities.job.key(orgId, jobId),
        UpdateExpression:
          'ADD progress.processedPages :pages SET progress.updatedAt = :now, updatedAt = :now',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':pages': pages, ':now': new Date().toISOString() },
        ReturnValues: 'ALL_NEW',
      }),
    );
    const progress = result.Attributes?.progress as JobRecord['progress'] | undefined;
    if (!progress || progress.totalPages <= 0) return;
    // Percent follows the counter; capped below 100 until the job completes.
    const percent = Math.min(99, Math.floor((progress.processedPages / progress.totalPages) * 100));
    await this.client
      .send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: entities.job.key(orgId, jobId),
          UpdateExpression: 'SET progress.#percent = :percent, progress.#message = :message',
          ExpressionAttributeNames: { '#percent': 'percent', '#message': 'message' },
          ConditionExpression: 'attribute_exists(pk) AND progress.#percent < :percent',
          ExpressionAttributeValues: {
            ':percent': percent,
            ':message': `Processed ${Math.min(progress.processedPages, progress.totalPages)} of ${progress.totalPages} pages.`,
          },
        }),
      )
      .catch((error) => {
        if (!isConditionFailure(error)) throw error;
      });
  }

  async readyDocumentWithDigest(projectId: string, sha256: string): Promise<string | null> {
    const index = TABLE_DESIGN.indexes.byParent;
    const result = await this.client.send(
      new QueryCommand({
        TableName: this.tableName,
        IndexName: index.name,
        KeyConditionExpression: `${index.partitionKey} = :pk`,
        FilterExpression: '#status = :ready',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: {
          ':pk': entities.document.indexes.byParent(projectId, sha256, '').gsi1pk,
          ':ready': 'ready',
        },
      }),
    );
    const found = result.Items?.[0];
    return found ? String(found.documentId) : null;
  }
}
