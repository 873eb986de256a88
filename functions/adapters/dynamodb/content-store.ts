import { type DynamoDBDocumentClient, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { DocumentRecord, RegionRecord, SpecSectionRecord } from '../../core/content/model.ts';
import type { RegionNormalizationStore } from '../../core/content/ports.ts';
import { summarizeContent } from '../../core/content/summary.ts';
import { NORMALIZED_DATA_SCHEMA_VERSION, type NormalizedData } from '../../core/extraction/model.ts';
import type {
  ContentStore,
  CreditLedger,
  FileContent,
  ProjectTotalsWriter,
} from '../../core/pipeline/ports.ts';
import { waitingKeys } from '../../core/pipeline/waiting-sheets.ts';
import type { OverviewCounts } from '../../core/projects/model.ts';
import { batchWriteAll } from './batch-write.ts';
import { recountFileSummary, regionsWithReferences } from './content-summaries.ts';
import { balanceSeen, creditMovementItems } from './credit-movement.ts';
import { cancellationReasons } from './errors.ts';
import { pageRowItems, specSectionItem } from './file-content-items.ts';
import { changeDocument, projectCounters } from './project-counters.ts';
import { prefixQuery, queryAll, queryCount } from './query-page.ts';
import { ENTITY_VERSION, keys } from './table.ts';

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
      ...prefixQuery(this.tableName, `PROJECT#${projectId}`, prefix),
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
      ...content.sections.map((section) => keys.specSection(projectId, fileId, section.sectionIndex).sk),
    ]);
    const stale = (
      await Promise.all(
        [keys.sheetPrefix, keys.regionPrefix, keys.specPrefix, keys.facetPrefix].map((prefix) =>
          this.keysWithPrefix(projectId, `${prefix}${fileId}#`),
        ),
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
    const document = {
      ...keys.document(projectId, content.document.documentId),
      ...keys.documentByDigest(projectId, content.document.sha256, content.document.documentId),
      entity: 'document',
      v: ENTITY_VERSION.document,
      ...content.document,
      // Every document row says which sheets its references wait for (none: an empty list).
      unresolvedSheetRefs: content.document.unresolvedSheetRefs ?? waitingKeys(content.regions),
      contentSummary: summarizeContent({
        sheets: content.sheets,
        regions: content.regions,
        sectionCount: content.sections.length,
        facetCount: content.facets.length,
      }),
    };
    await changeDocument(this.client, this.tableName, projectId, content.document.documentId, () => document);
  }

  async documents(projectId: string): Promise<DocumentRecord[]> {
    const items = await queryAll(
      this.client,
      prefixQuery(this.tableName, `PROJECT#${projectId}`, keys.documentPrefix),
    );
    return items as unknown as DocumentRecord[];
  }

  private regionsToNormalizeQuery(projectId: string, fileId: string) {
    return {
      ...prefixQuery(this.tableName, `PROJECT#${projectId}`, `${keys.regionPrefix}${fileId}#`),
      FilterExpression: normalization.missing,
      ExpressionAttributeNames: normalization.names,
      ExpressionAttributeValues: {
        ':pk': `PROJECT#${projectId}`,
        ':prefix': `${keys.regionPrefix}${fileId}#`,
        ...normalization.values,
      },
    };
  }

  async countRegionsToNormalize(projectId: string, fileId: string): Promise<number> {
    return queryCount(this.client, this.regionsToNormalizeQuery(projectId, fileId));
  }

  async regionsToNormalize(projectId: string, fileId: string): Promise<RegionRecord[]> {
    return (await queryAll(
      this.client,
      this.regionsToNormalizeQuery(projectId, fileId),
    )) as unknown as RegionRecord[];
  }

  async fileLayout(projectId: string, fileId: string) {
    const pk = `PROJECT#${projectId}`;
    const [sheets, views] = await Promise.all([
      queryAll(this.client, {
        ...prefixQuery(this.tableName, pk, `${keys.sheetPrefix}${fileId}#`),
        ProjectionExpression: 'pageNumber, sheetNumber',
      }),
      queryAll(this.client, {
        ...prefixQuery(this.tableName, pk, `${keys.regionPrefix}${fileId}#`),
        FilterExpression: 'regionType = :view',
        ProjectionExpression: 'pageNumber, regionIndex, #nd.viewNumber',
        ExpressionAttributeNames: { '#nd': 'normalizedData' },
        ExpressionAttributeValues: {
          ':pk': pk,
          ':prefix': `${keys.regionPrefix}${fileId}#`,
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
          Key: keys.region(projectId, region.fileId, region.pageNumber, region.regionIndex),
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
          Key: keys.document(projectId, documentId),
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
        [keys.regionPrefix, 'cropPath', 'region_crop'],
        [keys.specPrefix, 'pdfPath', 'specification_file'],
      ] as const) {
        const items = await queryAll(this.client, {
          ...prefixQuery(this.tableName, `PROJECT#${projectId}`, `${prefix}${fileId}#`),
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
  async projectTotals(projectId: string) {
    const counters = await projectCounters(this.client, this.tableName, projectId);
    const count = (name: string) => (typeof counters[name] === 'number' ? (counters[name] as number) : 0);
    const counts: OverviewCounts = {
      files: count('files'),
      sheets: count('sheets'),
      regions: count('regions'),
      // Sources and passages of indexed documents: each passage is one embedded vector.
      vectors: count('indexedSources'),
      vectorChunks: count('indexedPassages'),
      normalizedRegions: count(`normalized#v${NORMALIZED_DATA_SCHEMA_VERSION}`),
      specifications: count('sections'),
      docs: count('docs'),
    };
    const disciplines = Object.keys(counters)
      .filter((name) => name.startsWith('discipline#') && count(name) > 0)
      .map((name) => {
        const code = name.slice('discipline#'.length);
        return { code, label: String(counters[`disciplineLabel#${code}`] ?? code), count: count(name) };
      });
    return {
      counts,
      searchableSources: count('sources'),
      indexedSources: count('indexedSources'),
      disciplines: disciplines.sort((a, b) => b.count - a.count || a.code.localeCompare(b.code)),
    };
  }
}

export class DynamoProjectTotalsWriter implements ProjectTotalsWriter {
  private readonly client: DynamoDBDocumentClient;
  private readonly tableName: string;

  constructor(client: DynamoDBDocumentClient, tableName: string) {
    this.client = client;
    this.tableName = tableName;
  }

  async saveTotals(
    orgId: string,
    projectId: string,
    totals: Awaited<ReturnType<ContentStore['projectTotals']>>,
  ) {
    await this.client.send(
      new UpdateCommand({
        TableName: this.tableName,
        Key: keys.project(orgId, projectId),
        UpdateExpression:
          'SET counts = :counts, disciplineCounts = :disciplines, indexedSources = :indexed, searchableSources = :searchable, normalizedSchemaVersion = :normalizedVersion, updatedAt = :now',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: {
          ':counts': totals.counts,
          ':disciplines': totals.disciplines,
          ':indexed': totals.indexedSources,
          ':searchable': totals.searchableSources,
          ':normalizedVersion': NORMALIZED_DATA_SCHEMA_VERSION,
          ':now': new Date().toISOString(),
        },
      }),
    );
  }
}

/**
 * Job credits: a reservation moves credits out of the balance at preflight; settlement keeps the
 * debit and returns the rest. Ledger entries have ids derived from the job, so each happens once.
 */
export class DynamoCreditLedger implements CreditLedger {
  private readonly client: DynamoDBDocumentClient;
  private readonly tableName: string;

  constructor(client: DynamoDBDocumentClient, tableName: string) {
    this.client = client;
    this.tableName = tableName;
  }

  async reserve(orgId: string, jobId: string, credits: number) {
    try {
      await this.client.send(
        new TransactWriteCommand({
          TransactItems: creditMovementItems(this.tableName, {
            orgId,
            entryId: `led_reserve_${jobId}`,
            kind: 'job_reservation',
            amount: -credits,
            createdAt: new Date().toISOString(),
            requireBalance: true,
            details: { jobId },
          }),
        }),
      );
      return { ok: true as const };
    } catch (error) {
      const reasons = cancellationReasons(error);
      if (!reasons) throw error;
      if (reasons[0]?.failed) return { ok: true as const }; // reserved by an earlier attempt
      if (reasons[1]?.failed) return { ok: false as const, available: balanceSeen(reasons[1]) };
      throw error;
    }
  }

  async settle(orgId: string, jobId: string, reserved: number, debit: number) {
    try {
      await this.client.send(
        new TransactWriteCommand({
          TransactItems: creditMovementItems(this.tableName, {
            orgId,
            entryId: `led_settle_${jobId}`,
            kind: 'job_settlement',
            amount: Math.max(0, reserved - debit),
            createdAt: new Date().toISOString(),
            requireBalance: false,
            details: { debited: Math.min(debit, reserved), jobId },
          }),
        }),
      );
    } catch (error) {
      if (cancellationReasons(error)?.[0]?.failed) return; // settled by an earlier attempt
      throw error;
    }
  }
}
