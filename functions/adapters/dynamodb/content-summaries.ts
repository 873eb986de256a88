import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { RegionRecord, SearchIndexState } from '../../core/content/model.ts';
import { type ContentSummary, summarizeContent } from '../../core/content/summary.ts';
import { changeDocument } from './project-totals.ts';
import { prefixQuery, queryAll } from './query-page.ts';
import { keys } from './table.ts';

/** What totals need of a document row: the file it stands for and its content summary. */
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
  const pk = `PROJECT#${projectId}`;
  const [sheets, regions, sections, facets] = await Promise.all([
    queryAll(client, {
      ...prefixQuery(tableName, pk, `${keys.sheetPrefix}${fileId}#`),
      ProjectionExpression: 'discipline',
    }),
    queryAll(client, {
      ...prefixQuery(tableName, pk, `${keys.regionPrefix}${fileId}#`),
      ProjectionExpression: 'regionType, drawingType, layoutType, pageNumber, #nd.schemaVersion',
      ExpressionAttributeNames: { '#nd': 'normalizedData' },
    }),
    queryAll(client, {
      ...prefixQuery(tableName, pk, `${keys.specPrefix}${fileId}#`),
      ProjectionExpression: 'pk',
    }),
    queryAll(client, {
      ...prefixQuery(tableName, pk, `${keys.facetPrefix}${fileId}#`),
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
    ...prefixQuery(tableName, `PROJECT#${projectId}`, keys.documentPrefix),
    ProjectionExpression: 'documentId, fileId, fileNameLower, classification, searchIndex, contentSummary',
  });
  const rows: DocumentSummaryRow[] = [];
  for (const item of items) {
    const row = item as unknown as DocumentSummaryRow;
    rows.push(
      row.contentSummary
        ? row
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
  const pk = `PROJECT#${projectId}`;
  const prefix = `${keys.regionPrefix}${fileId}#`;
  return (await queryAll(client, {
    ...prefixQuery(tableName, pk, prefix),
    FilterExpression: 'size(#nd.#refs) > :none',
    ExpressionAttributeNames: { '#nd': 'normalizedData', '#refs': 'sheetReferences' },
    ExpressionAttributeValues: { ':pk': pk, ':prefix': prefix, ':none': 0 },
  })) as unknown as RegionRecord[];
}
