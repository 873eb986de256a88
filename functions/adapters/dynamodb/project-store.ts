import {
  type DynamoDBDocumentClient,
  GetCommand,
  TransactWriteCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import type { ErrorInfo } from '../../core/errors.ts';
import type { Page } from '../../core/pagination/page.ts';
import type { OwnedProject, ProjectRecord, ProjectSettings } from '../../core/projects/model.ts';
import type { CreateProjectCommand, CreateProjectOutcome, ProjectStore } from '../../core/projects/ports.ts';
import { recordMetric } from '../cloudwatch/metrics.ts';
import { balanceSeen, creditMovementItems } from './credit-ledger.ts';
import { cancellationReasons, isConditionFailure } from './errors.ts';
import { queryCount, queryPage } from './query-page.ts';
import { entities } from './table.ts';

export class DynamoProjectStore implements ProjectStore {
  private readonly client: DynamoDBDocumentClient;
  private readonly tableName: string;

  constructor(client: DynamoDBDocumentClient, tableName: string) {
    this.client = client;
    this.tableName = tableName;
  }

  async createWithCharge(command: CreateProjectCommand): Promise<CreateProjectOutcome> {
    const { orgId, project, price, ledgerEntryId } = command;
    try {
      await this.client.send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Put: {
                TableName: this.tableName,
                Item: entities.project.format(
                  {
                    ...entities.project.key(orgId, project.id),
                  },
                  {
                    ...project,
                  },
                ),
                ConditionExpression: 'attribute_not_exists(pk)',
              },
            },
            {
              Put: {
                TableName: this.tableName,
                Item: entities.projectName.format(
                  {
                    ...entities.projectName.key(orgId, project.name),
                  },
                  {
                    projectId: project.id,
                  },
                ),
                ConditionExpression: 'attribute_not_exists(pk)',
              },
            },
            ...creditMovementItems(this.tableName, {
              orgId,
              entryId: ledgerEntryId,
              kind: 'project_creation',
              amount: -price,
              createdAt: project.createdAt,
              requireBalance: true,
              details: { projectId: project.id },
            }),
          ],
        }),
      );
      recordMetric('CreditsCharged', price);
    } catch (error) {
      const reasons = cancellationReasons(error);
      if (!reasons) throw error;
      if (reasons[1]?.failed) return { kind: 'name_conflict' };
      // reasons[2]: the ledger entry (its id is new per request, so it never exists already).
      if (reasons[3]?.failed)
        return { kind: 'insufficient_credits', availableCredits: balanceSeen(reasons[3]) };
      throw error;
    }
    const org = await this.client.send(
      new GetCommand({
        TableName: this.tableName,
        Key: entities.organization.key(orgId),
        ConsistentRead: true,
      }),
    );
    return { kind: 'created', availableCredits: Number(org.Item?.creditBalance ?? 0) };
  }

  async get(orgId: string, projectId: string): Promise<OwnedProject | null> {
    const result = await this.client.send(
      new GetCommand({
        TableName: this.tableName,
        Key: entities.project.key(orgId, projectId),
        ConsistentRead: true,
      }),
    );
    // Read under the organization's own key: this is the ownership check the brand records.
    return result.Item ? (entities.project.parse(result.Item) as OwnedProject) : null;
  }

  private projectsQuery(orgId: string) {
    // Newest first: ids are time-ordered, so the sort key order is creation order.
    return {
      TableName: this.tableName,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: {
        ':pk': entities.organization.key(orgId).pk,
        ':prefix': entities.project.prefix,
      },
      ScanIndexForward: false,
    };
  }

  async list(
    orgId: string,
    options: { limit: number; position: unknown | null },
  ): Promise<Page<ProjectRecord>> {
    return queryPage(this.client, this.projectsQuery(orgId), {
      ...options,
      keyOf: (item) => ({ pk: item.pk, sk: item.sk }),
      map: entities.project.parse,
    });
  }

  async count(orgId: string): Promise<number> {
    return queryCount(this.client, this.projectsQuery(orgId));
  }

  async saveProvisionedResources(
    orgId: string,
    projectId: string,
    resources: { settings: ProjectSettings; indexLocation: string },
  ): Promise<void> {
    await this.client.send(
      new UpdateCommand({
        TableName: this.tableName,
        Key: entities.project.key(orgId, projectId),
        UpdateExpression: 'SET settings = :settings, indexLocation = :location, updatedAt = :now',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: {
          ':settings': resources.settings,
          ':location': resources.indexLocation,
          ':now': new Date().toISOString(),
        },
      }),
    );
  }

  async markReady(orgId: string, projectId: string): Promise<boolean> {
    try {
      await this.client.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: entities.project.key(orgId, projectId),
          UpdateExpression: 'SET #status = :ready, runtimeStatus = :ready, updatedAt = :now',
          ConditionExpression: '#status = :provisioning AND attribute_exists(indexLocation)',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: {
            ':ready': 'ready',
            ':provisioning': 'provisioning',
            ':now': new Date().toISOString(),
          },
        }),
      );
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  }

  async markFailedAndRefund(
    orgId: string,
    projectId: string,
    error: ErrorInfo,
    refundEntryId: string,
  ): Promise<boolean> {
    const project = await this.get(orgId, projectId);
    if (project?.status !== 'provisioning') return false;
    const now = new Date().toISOString();
    const credits = project.charge.credits;
    try {
      await this.client.send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Update: {
                TableName: this.tableName,
                Key: entities.project.key(orgId, projectId),
                UpdateExpression:
                  'SET #status = :failed, runtimeStatus = :failed, #error = :error, updatedAt = :now',
                ConditionExpression: '#status = :provisioning',
                ExpressionAttributeNames: { '#status': 'status', '#error': 'error' },
                ExpressionAttributeValues: {
                  ':failed': 'failed',
                  ':provisioning': 'provisioning',
                  ':error': error,
                  ':now': now,
                },
              },
            },
            {
              // The name is free again, so the client can create the project anew.
              Delete: { TableName: this.tableName, Key: entities.projectName.key(orgId, project.name) },
            },
            ...creditMovementItems(this.tableName, {
              orgId,
              entryId: refundEntryId,
              kind: 'project_creation_refund',
              amount: credits,
              createdAt: now,
              requireBalance: false,
              details: { projectId, refundOf: project.charge.ledgerEntryId },
            }),
          ],
        }),
      );
      return true;
    } catch (caught) {
      if (cancellationReasons(caught)?.[0]?.failed) return false;
      throw caught;
    }
  }
}
