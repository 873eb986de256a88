import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { RegionRecord, SearchIndexState } from '../../core/content/model.ts';
import { type ContentSummary, summarizeContent } from '../../core/content/summary.ts';
import { changeDocument } from './project-totals.ts';
import { prefixQuery, queryAll } from './query-page.ts';
import { entities, partitions } from './table.ts';

/** What totals need of a document row: the file it stands for and its content summary. */
const SUMMARY_FIELDS = [
  'documentId',
  'fileId',
  'fileNameLower',
  'classification',
  'searchIndex',
  'contentSummary',
] as const;

export interface DocumentSummaryRow {
  documentId: string;
  fileId: string;
  fileNameLower: string;
  classification: string;
  searchIndex?: SearchIndexState;
  contentSummary: ContentSummary;
}

/**
 * Counts one file's rows again and stores the summary on its document row: after a repair job
 * changed its regions, or for a row written before summaries existed. Cost grows with the file only.
 */
export async function recountFileSummary(
  client: DynamoDBDocumentClient,
  tableName: string,
  projectId: string,
  documentId: string,
  fileId: string,
): Promise<ContentSummary> {
  const summary = await countFileSummary(client, tableName, projectId, fileId);
  // A document deleted meanwhile stays deleted.
  await changeDocument(client, tableName, projectId, documentId, (current) =>
    current ? { ...current, contentSummary: summary } : null,
  );
  return summary;
}

/** One file's content summary, counted from its rows (reads only). */
async function countFileSummary(
  client: DynamoDBDocumentClient,
  tableName: string,
  projectId: string,
  fileId: string,
): Promise<ContentSummary> {
  const pk = partitions.project(projectId);
  const [sheets, regions, sections, facets] = await Promise.all([
    queryAll(client, {
      ...prefixQuery(tableName, pk, `${entities.sheet.prefix}${fileId}#`),
      ProjectionExpression: 'discipline',
    }),
    queryAll(client, {
      ...prefixQuery(tableName, pk, `${entities.region.prefix}${fileId}#`),
      ProjectionExpression: 'regionType, drawingType, layoutType, pageNumber, #nd.schemaVersion',
      ExpressionAttributeNames: { '#nd': 'normalizedData' },
    }),
    queryAll(client, {
      ...prefixQuery(tableName, pk, `${entities.specSection.prefix}${fileId}#`),
      ProjectionExpression: 'pk',
    }),
    queryAll(client, {
      ...prefixQuery(tableName, pk, `${entities.specFacet.prefix}${fileId}#`),
      ProjectionExpression: 'pk',
    }),
  ]);
  return summarizeContent({
    sheets: sheets as never[],
    regions: regions as never[],
    sectionCount: sections.length,
    facetCount: facets.length,
  });
}

/**
 * Every document row of a project with its summary: rows written before summaries are counted now,
 * and the count is stored only when `store` says the caller may write (a read route's role may not:
 * it answers with the count, and the next writer stores it).
 */
export async function documentSummaries(
  client: DynamoDBDocumentClient,
  tableName: string,
  projectId: string,
  { store }: { store: boolean },
): Promise<DocumentSummaryRow[]> {
  const items = await queryAll(client, {
    ...prefixQuery(tableName, partitions.project(projectId), entities.document.prefix),
    ProjectionExpression: SUMMARY_FIELDS.join(', '),
  });
  const rows: DocumentSummaryRow[] = [];
  for (const item of items) {
    const row = entities.document.pick(item, SUMMARY_FIELDS);
    rows.push(
      row.contentSummary
        ? { ...row, contentSummary: row.contentSummary }
        : {
            ...row,
            contentSummary: store
              ? await recountFileSummary(client, tableName, projectId, row.documentId, row.fileId)
              : await countFileSummary(client, tableName, projectId, row.fileId),
          },
    );
  }
  return rows;
}

/** The regions of one file that carry sheet references (what resolving references reads). */
export async function regionsWithReferences(
  client: DynamoDBDocumentClient,
  tableName: string,
  projectId: string,
  fileId: string,
): Promise<RegionRecord[]> {
  const pk = partitions.project(projectId);
  const prefix = `${entities.region.prefix}${fileId}#`;
  return (
    await queryAll(client, {
      ...prefixQuery(tableName, pk, prefix),
      FilterExpression: 'size(#nd.#refs) > :none',
      ExpressionAttributeNames: { '#nd': 'normalizedData', '#refs': 'sheetReferences' },
      ExpressionAttributeValues: { ':pk': pk, ':prefix': prefix, ':none': 0 },
    })
  ).map(entities.region.parse);
}
