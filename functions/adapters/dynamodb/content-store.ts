import { type DynamoDBDocumentClient, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { DocumentRecord, RegionRecord, SpecSectionRecord } from '../../core/content/model.ts';
import type { RegionNormalizationStore } from '../../core/content/ports.ts';
import { summarizeContent } from '../../core/content/summary.ts';
import type { ContentStore, FileContent } from '../../core/pipeline/ports.ts';
import { waitingKeys } from '../../core/pipeline/waiting-sheets.ts';
import { NORMALIZED_DATA_SCHEMA_VERSION, type NormalizedData } from '../../engine/model.ts';
import { batchWriteAll } from './batch-write.ts';
import { recountFileSummary, regionsWithReferences } from './content-summaries.ts';
import { pageRowItems, specSectionItem } from './file-content-items.ts';
import { changeDocument, projectTotals } from './project-totals.ts';
import { prefixQuery, queryAll, queryCount } from './query-page.ts';
import { entities, partitions } from './table.ts';

/**
 * A region is normalized when its normalizedData is of the current schema version (or newer): a
 * region without it, or written by an older engine, is what `regions/normalize` repairs.
 */
const normalization = {
  names: { '#nd': 'normalizedData', '#sv': 'schemaVersion' },
  values: { ':sv': NORMALIZED_DATA_SCHEMA_VERSION },
  missing: 'attribute_not_exists(#nd.#sv) OR #nd.#sv < :sv',
  present: '#nd.#sv >= :sv',
};

/** Rows of extracted content, keyed so that a retried write replaces and never duplicates. */
export class DynamoContentStore implements ContentStore, RegionNormalizationStore {
  private readonly client: DynamoDBDocumentClient;
  private readonly tableName: string;

  constructor(client: DynamoDBDocumentClient, tableName: string) {
    this.client = client;
    this.tableName = tableName;
  }

  private async keysWithPrefix(projectId: string, prefix: string): Promise<{ pk: string; sk: string }[]> {
    const items = await queryAll(this.client, {
      ...prefixQuery(this.tableName, partitions.project(projectId), prefix),
      ProjectionExpression: 'pk, sk',
    });
    return items.map((item) => ({ pk: String(item.pk), sk: String(item.sk) }));
  }

  async writeFileContent(
    projectId: string,
    fileId: string,
    content: FileContent,
    finalSections?: () => Promise<SpecSectionRecord[]>,
  ): Promise<void> {
    const puts = pageRowItems(projectId, fileId, content);
    // Rows a previous attempt wrote but this one does not (the engine changed its mind) are removed.
    const wanted = new Set([
      ...puts.map((item) => item.sk as string),
      ...content.sections.map(
        (section) => entities.specSection.key(projectId, fileId, section.sectionIndex).sk,
      ),
    ]);
    const stale = (
      await Promise.all(
        [
          entities.sheet.prefix,
          entities.region.prefix,
          entities.specSection.prefix,
          entities.specFacet.prefix,
        ].map((prefix) => this.keysWithPrefix(projectId, `${prefix}${fileId}#`)),
      )
    )
      .flat()
      .filter((key) => !wanted.has(key.sk));
    // Both settle before either's failure is thrown: no write is left running behind an error.
    const [settledSections, written] = await Promise.allSettled([
      finalSections ? finalSections() : Promise.resolve(content.sections),
      batchWriteAll(this.client, this.tableName, [
        ...stale.map((key) => ({ DeleteRequest: { Key: key } })),
        ...puts.map((item) => ({ PutRequest: { Item: item } })),
      ]),
    ]);
    if (written.status === 'rejected') throw written.reason;
    if (settledSections.status === 'rejected') throw settledSections.reason;
    const sections = settledSections.value;
    await batchWriteAll(
      this.client,
      this.tableName,
      sections.map((section) => ({ PutRequest: { Item: specSectionItem(projectId, fileId, section) } })),
    );
    // The document row last: once it says ready, everything it points to is in place. Its
    // summary and the project's counters change together.
    const document = entities.document.format(
      {
        ...entities.document.key(projectId, content.document.documentId),
        ...entities.document.indexes.byParent(
          projectId,
          content.document.sha256,
          content.document.documentId,
        ),
      },
      {
        ...content.document,
        // Every document row says which sheets its references wait for (none: an empty list).
        unresolvedSheetRefs: content.document.unresolvedSheetRefs ?? waitingKeys(content.regions),
        contentSummary: summarizeContent({
          sheets: content.sheets,
          regions: content.regions,
          sectionCount: content.sections.length,
          facetCount: content.facets.length,
        }),
      },
    );
    await changeDocument(this.client, this.tableName, projectId, content.document.documentId, () => document);
  }

  async documents(projectId: string): Promise<DocumentRecord[]> {
    const items = await queryAll(
      this.client,
      prefixQuery(this.tableName, partitions.project(projectId), entities.document.prefix),
    );
    return items.map(entities.document.parse);
  }

  private regionsToNormalizeQuery(projectId: string, fileId: string) {
    return {
      ...prefixQuery(this.tableName, partitions.project(projectId), `${entities.region.prefix}${fileId}#`),
      FilterExpression: normalization.missing,
      ExpressionAttributeNames: normalization.names,
      ExpressionAttributeValues: {
        ':pk': partitions.project(projectId),
        ':prefix': `${entities.region.prefix}${fileId}#`,
        ...normalization.values,
      },
    };
  }

  async countRegionsToNormalize(projectId: string, fileId: string): Promise<number> {
    return queryCount(this.client, this.regionsToNormalizeQuery(projectId, fileId));
  }

  async regionsToNormalize(projectId: string, fileId: string): Promise<RegionRecord[]> {
    return (await queryAll(this.client, this.regionsToNormalizeQuery(projectId, fileId))).map(
      entities.region.parse,
    );
  }

  async fileLayout(projectId: string, fileId: string) {
    const pk = partitions.project(projectId);
    const [sheets, views] = await Promise.all([
      queryAll(this.client, {
        ...prefixQuery(this.tableName, pk, `${entities.sheet.prefix}${fileId}#`),
        ProjectionExpression: 'pageNumber, sheetNumber',
      }),
      queryAll(this.client, {
        ...prefixQuery(this.tableName, pk, `${entities.region.prefix}${fileId}#`),
        FilterExpression: 'regionType = :view',
        ProjectionExpression: 'pageNumber, regionIndex, #nd.viewNumber',
        ExpressionAttributeNames: { '#nd': 'normalizedData' },
        ExpressionAttributeValues: {
          ':pk': pk,
          ':prefix': `${entities.region.prefix}${fileId}#`,
          ':view': 'view',
        },
      }),
    ]);
    return {
      sheets: sheets.map((item) => ({
        pageNumber: Number(item.pageNumber),
        sheetNumber: (item.sheetNumber as string | null | undefined) ?? null,
      })),
      views: views.map((item) => ({
        pageNumber: Number(item.pageNumber),
        regionIndex: Number(item.regionIndex),
        viewNumber: (item.normalizedData as { viewNumber?: string | null } | undefined)?.viewNumber ?? null,
      })),
    };
  }

  async saveNormalizedData(
    projectId: string,
    region: Pick<RegionRecord, 'fileId' | 'pageNumber' | 'regionIndex'>,
    data: NormalizedData,
  ): Promise<void> {
    await this.client
      .send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: entities.region.key(projectId, region.fileId, region.pageNumber, region.regionIndex),
          UpdateExpression: 'SET #nd = :data',
          // The region may have been replaced meanwhile (its file reprocessed): never resurrect a row.
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeNames: { '#nd': 'normalizedData' },
          ExpressionAttributeValues: { ':data': data },
        }),
      )
      .catch((error: Error) => {
        if (error.name !== 'ConditionalCheckFailedException') throw error;
      });
  }

  regionsWithReferences(projectId: string, fileId: string): Promise<RegionRecord[]> {
    return regionsWithReferences(this.client, this.tableName, projectId, fileId);
  }

  async setUnresolvedSheetRefs(projectId: string, documentId: string, sheetKeys: string[]): Promise<void> {
    await this.client
      .send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: entities.document.key(projectId, documentId),
          UpdateExpression: 'SET unresolvedSheetRefs = :keys',
          // A document deleted meanwhile stays deleted.
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeValues: { ':keys': sheetKeys },
        }),
      )
      .catch((error: Error) => {
        if (error.name !== 'ConditionalCheckFailedException') throw error;
      });
  }

  async artifactKeysOfJob(projectId: string, fileIds: string[]) {
    const found: { type: 'region_crop' | 'specification_file'; key: string }[] = [];
    for (const fileId of fileIds) {
      for (const [prefix, field, type] of [
        [entities.region.prefix, 'cropPath', 'region_crop'],
        [entities.specSection.prefix, 'pdfPath', 'specification_file'],
      ] as const) {
        const items = await queryAll(this.client, {
          ...prefixQuery(this.tableName, partitions.project(projectId), `${prefix}${fileId}#`),
          FilterExpression: 'attribute_exists(#field)',
          ExpressionAttributeNames: { '#field': field },
          ProjectionExpression: '#field',
        });
        for (const item of items)
          if (typeof item[field] === 'string') found.push({ type, key: item[field] as string });
      }
    }
    return found;
  }

  /** Counts one file's rows again (after a repair job changed them) into its document's summary. */
  async recountFile(projectId: string, documentId: string, fileId: string): Promise<void> {
    await recountFileSummary(this.client, this.tableName, projectId, documentId, fileId);
  }

  /** The project's counters item: one read, whatever the project holds. */
  projectTotals(projectId: string) {
    return projectTotals(this.client, this.tableName, projectId);
  }
}
