import {
  type DynamoDBDocumentClient,
  ScanCommand,
  TransactWriteCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { waitingKeys } from '../../core/pipeline/waiting-sheets.ts';
import { recountFileSummary, regionsWithReferences } from './content-summaries.ts';
import { entities } from './table.ts';

/**
 * Brings content rows written by an earlier version to the current key design: regions get their
 * entries in the filter indexes, facets move from under their section to their own prefix, and
 * documents get a content summary (or one that counts regions by page number) and are counted into
 * their project's counters, and the sheet keys their references wait for (so that a later file
 * bringing one of those sheets resolves them). Idempotent (each step is conditional). Run it after the documents of the
 * earlier version were all written; it counts their rows as it finds them. Returns how many rows
 * changed.
 */
export async function upgradeStoredContent(
  client: DynamoDBDocumentClient,
  tableName: string,
): Promise<number> {
  let changed = 0;
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await client.send(
      new ScanCommand({
        TableName: tableName,
        FilterExpression:
          '(entity = :region AND attribute_not_exists(gsi3pk)) OR (entity = :facet AND begins_with(sk, :oldFacet)) OR (entity = :document AND (attribute_not_exists(revision) OR (attribute_exists(contentSummary) AND (attribute_not_exists(contentSummary.pageNumbers) OR attribute_not_exists(unresolvedSheetRefs)))))',
        ExpressionAttributeValues: {
          ':region': 'region',
          ':facet': 'specFacet',
          ':oldFacet': 'SPEC#',
          ':document': 'document',
        },
        ExclusiveStartKey: startKey,
      }),
    );
    for (const item of page.Items ?? []) {
      const upgrade =
        item.entity === 'region' ? indexRegion : item.entity === 'document' ? summarizeDocument : moveFacet;
      await upgrade(client, tableName, item);
      changed++;
    }
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return changed;
}

type StoredItem = Record<string, unknown>;

/** A region gets its entries in the filter indexes. */
async function indexRegion(
  client: DynamoDBDocumentClient,
  tableName: string,
  item: StoredItem,
): Promise<void> {
  const indexKeys = entities.region.indexes.filters(String(item.projectId), entities.region.parse(item));
  await client.send(
    new UpdateCommand({
      TableName: tableName,
      Key: { pk: item.pk, sk: item.sk },
      UpdateExpression: 'SET gsi3pk = :a, gsi3sk = :b, gsi4pk = :c, gsi4sk = :d',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeValues: {
        ':a': indexKeys.gsi3pk,
        ':b': indexKeys.gsi3sk,
        ':c': indexKeys.gsi4pk,
        ':d': indexKeys.gsi4sk,
      },
    }),
  );
}

/**
 * A document is counted into the project's counters, with a content summary of its rows (page numbers
 * included), and gets the sheet keys its references wait for, so that a later file bringing one
 * resolves them.
 */
async function summarizeDocument(
  client: DynamoDBDocumentClient,
  tableName: string,
  item: StoredItem,
): Promise<void> {
  const projectId = String(item.projectId);
  const summarized =
    item.revision !== undefined &&
    (item.contentSummary === undefined ||
      (item.contentSummary as { pageNumbers?: unknown }).pageNumbers !== undefined);
  if (!summarized)
    await recountFileSummary(client, tableName, projectId, String(item.documentId), String(item.fileId));
  if (item.unresolvedSheetRefs !== undefined) return;
  const regions = await regionsWithReferences(client, tableName, projectId, String(item.fileId));
  await client.send(
    new UpdateCommand({
      TableName: tableName,
      Key: entities.document.key(projectId, String(item.documentId)),
      UpdateExpression: 'SET unresolvedSheetRefs = :keys',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeValues: { ':keys': waitingKeys(regions) },
    }),
  );
}

/** A facet moves from under its section to its own prefix: SPEC#<file>#<section>#F#<facet> -> FACET#<file>#<section>#<facet>. */
async function moveFacet(client: DynamoDBDocumentClient, tableName: string, item: StoredItem): Promise<void> {
  const [, fileId, section, , facet] = String(item.sk).split('#');
  const target = entities.specFacet.key(
    String(item.projectId),
    String(fileId),
    Number(section),
    Number(facet),
  );
  await client.send(
    new TransactWriteCommand({
      TransactItems: [
        { Put: { TableName: tableName, Item: { ...item, ...target } } },
        { Delete: { TableName: tableName, Key: { pk: item.pk, sk: item.sk } } },
      ],
    }),
  );
}
