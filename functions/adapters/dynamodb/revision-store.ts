import { type DynamoDBDocumentClient, GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { contentIds } from '../../core/content/model.ts';
import type { LinkOutcome, MatchableSheet, RevisionStore } from '../../core/revisions/ports.ts';
import { cancellationReasons } from './errors.ts';
import { prefixQuery, queryAll } from './query-page.ts';
import { entities, partitions } from './table.ts';

type Item = Record<string, unknown>;

/** What matching reads of a sheet's row (the rest, its identification and region count, it never needs). */
const MATCHING_FIELDS = [
  'sheetId',
  'fileId',
  'documentId',
  'fileName',
  'sheetNumber',
  'confidence',
  'sheetTitle',
  'discipline',
  'revisions',
  'pageSize',
  'fingerprint',
  'revisionOf',
  'supersededBy',
] as const;

/** `#a0, #a1, ...` for the fields, safe for reserved words (`confidence`, `revisions`, ...). */
function projection(fields: readonly string[]): { expression: string; names: Record<string, string> } {
  const names: Record<string, string> = {};
  const expression = fields
    .map((field, index) => {
      names[`#a${index}`] = field;
      return `#a${index}`;
    })
    .join(', ');
  return { expression, names };
}

/** A sheet is current while its row names no sheet that supersedes it. */
export const CURRENT_SHEET_CONDITION = '(attribute_not_exists(supersededBy) OR supersededBy = :noSheet)';

/** The project counter that says some sheet was ever superseded (listing totals then count the rows). */
export const SUPERSEDED_SHEETS_COUNTER = 'supersededSheets';

const ATTEMPTS = 4;

/**
 * Revision links between sheets of a project: the rows matching reads (by projection), and the two
 * attributes a link writes, `revisionOf` on the new sheet and `supersededBy` on the earlier one, in one
 * transaction whose conditions make a retried link a no-op and a second link of one sheet impossible.
 */
export class DynamoRevisionStore implements RevisionStore {
  private readonly client: DynamoDBDocumentClient;
  private readonly tableName: string;

  constructor(client: DynamoDBDocumentClient, tableName: string) {
    this.client = client;
    this.tableName = tableName;
  }

  /** The job of each of the project's documents. */
  private async jobsOfDocuments(projectId: string): Promise<Map<string, string>> {
    const items = await queryAll(this.client, {
      ...prefixQuery(this.tableName, partitions.project(projectId), entities.document.prefix),
      ProjectionExpression: 'documentId, jobId',
    });
    return new Map(items.map((item) => [String(item.documentId), String(item.jobId)]));
  }

  private async matchable(
    projectId: string,
    prefix: string,
    filter?: { expression: string; values: Item },
  ): Promise<MatchableSheet[]> {
    const { expression, names } = projection(MATCHING_FIELDS);
    const query = prefixQuery(this.tableName, partitions.project(projectId), prefix);
    const [items, jobs] = await Promise.all([
      queryAll(this.client, {
        ...query,
        ProjectionExpression: expression,
        ExpressionAttributeNames: names,
        ...(filter
          ? {
              FilterExpression: filter.expression,
              ExpressionAttributeValues: { ...query.ExpressionAttributeValues, ...filter.values },
            }
          : {}),
      }),
      this.jobsOfDocuments(projectId),
    ]);
    return items.map((item) => {
      const sheet = entities.sheet.pick(item, MATCHING_FIELDS);
      return {
        sheetId: sheet.sheetId,
        fileId: sheet.fileId,
        documentId: sheet.documentId,
        fileName: sheet.fileName,
        sheetNumber: sheet.sheetNumber ?? null,
        confidence: sheet.confidence,
        sheetTitle: sheet.sheetTitle ?? null,
        discipline: sheet.discipline ?? null,
        revisions: sheet.revisions ?? [],
        pageSize: sheet.pageSize,
        fingerprint: sheet.fingerprint ?? null,
        jobId: jobs.get(sheet.documentId) ?? null,
        revisionOf: sheet.revisionOf ?? null,
        supersededBy: sheet.supersededBy ?? null,
      };
    });
  }

  sheetsOfFile(projectId: string, fileId: string): Promise<MatchableSheet[]> {
    return this.matchable(projectId, `${entities.sheet.prefix}${fileId}#`);
  }

  candidateSheets(projectId: string, options: { fileId: string }): Promise<MatchableSheet[]> {
    return this.matchable(projectId, entities.sheet.prefix, {
      expression: `${CURRENT_SHEET_CONDITION} OR begins_with(supersededBy, :ownSheets)`,
      values: { ':noSheet': null, ':ownSheets': contentIds.sheetsOfFile(options.fileId) },
    });
  }

  private async sheetRow(projectId: string, sheetId: string): Promise<Item | null> {
    const parsed = contentIds.parseSheet(sheetId);
    if (!parsed) return null;
    const { Item } = await this.client.send(
      new GetCommand({
        TableName: this.tableName,
        Key: entities.sheet.key(projectId, parsed.fileId, parsed.page),
        ProjectionExpression: 'sheetId, documentId, revisionOf, supersededBy',
        ConsistentRead: true,
      }),
    );
    return Item ?? null;
  }

  async sheetLinks(projectId: string, sheetId: string) {
    const row = await this.sheetRow(projectId, sheetId);
    if (!row) return null;
    const { Item: document } = await this.client.send(
      new GetCommand({
        TableName: this.tableName,
        Key: entities.document.key(projectId, String(row.documentId)),
        ProjectionExpression: 'jobId',
      }),
    );
    return {
      sheetId,
      jobId: typeof document?.jobId === 'string' ? document.jobId : null,
      supersededBy: typeof row.supersededBy === 'string' ? row.supersededBy : null,
    };
  }

  async link(
    projectId: string,
    link: { previousSheetId: string; sheetId: string; confidence: number },
  ): Promise<LinkOutcome> {
    const previous = contentIds.parseSheet(link.previousSheetId);
    const next = contentIds.parseSheet(link.sheetId);
    if (!previous || !next) return { kind: 'missing' };
    for (let attempt = 1; ; attempt++) {
      try {
        await this.client.send(
          new TransactWriteCommand({
            TransactItems: [
              {
                Update: {
                  TableName: this.tableName,
                  Key: entities.sheet.key(projectId, previous.fileId, previous.page),
                  UpdateExpression: 'SET supersededBy = :next',
                  ConditionExpression: `attribute_exists(pk) AND ${CURRENT_SHEET_CONDITION}`,
                  ExpressionAttributeValues: { ':next': link.sheetId, ':noSheet': null },
                },
              },
              {
                Update: {
                  TableName: this.tableName,
                  Key: entities.sheet.key(projectId, next.fileId, next.page),
                  UpdateExpression: 'SET revisionOf = :revisionOf',
                  ConditionExpression:
                    'attribute_exists(pk) AND (attribute_not_exists(revisionOf) OR revisionOf = :none)',
                  ExpressionAttributeValues: {
                    ':revisionOf': { sheetId: link.previousSheetId, confidence: link.confidence },
                    ':none': null,
                  },
                },
              },
              {
                // Only ever added to: listings read it as "some sheet of the project may be superseded".
                Update: {
                  TableName: this.tableName,
                  Key: entities.projectCounters.key(projectId),
                  UpdateExpression: 'ADD #superseded :one',
                  ExpressionAttributeNames: { '#superseded': SUPERSEDED_SHEETS_COUNTER },
                  ExpressionAttributeValues: { ':one': 1 },
                },
              },
            ],
          }),
        );
        return { kind: 'linked' };
      } catch (error) {
        const reasons = cancellationReasons(error);
        if (!reasons) throw error;
        if (reasons.some((reason) => reason.failed)) return this.outcomeOfRefusedLink(projectId, link);
        // A conflict with another transaction on one of the items (the counters): try again.
        if (attempt >= ATTEMPTS) throw error;
      }
    }
  }

  /** Why a link's conditions failed, read back from both rows: a retried link finds itself written. */
  private async outcomeOfRefusedLink(
    projectId: string,
    link: { previousSheetId: string; sheetId: string },
  ): Promise<LinkOutcome> {
    const [previous, next] = await Promise.all([
      this.sheetRow(projectId, link.previousSheetId),
      this.sheetRow(projectId, link.sheetId),
    ]);
    if (!previous || !next) return { kind: 'missing' };
    const supersededBy = typeof previous.supersededBy === 'string' ? previous.supersededBy : null;
    const revises = (next.revisionOf as { sheetId?: string } | null | undefined)?.sheetId ?? null;
    if (supersededBy === link.sheetId && revises === link.previousSheetId) return { kind: 'linked' };
    if (revises !== null && revises !== link.previousSheetId)
      return { kind: 'already_revises', sheetId: revises };
    if (supersededBy !== null && supersededBy !== link.sheetId)
      return { kind: 'already_superseded', by: supersededBy };
    // Neither condition explains it (a half-written link cannot exist: both are one transaction).
    return { kind: 'missing' };
  }
}
