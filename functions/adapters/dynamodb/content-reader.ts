import { type DynamoDBDocumentClient, GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { DocumentRecord, SpecSectionRecord } from '../../core/content/model.ts';
import { contentIds } from '../../core/content/model.ts';
import type {
  ContentReader,
  DocumentFilter,
  Paged,
  RegionFilter,
  SectionFilter,
  SheetFilter,
} from '../../core/content/ports.ts';
import { summaryRegionCount } from '../../core/content/summary.ts';
import { InvalidRequestError } from '../../core/errors.ts';
import type { OwnedProjectRef } from '../../core/projects/model.ts';
import { type DocumentSummaryRow, documentSummaries } from './content-summaries.ts';
import { Filter } from './filter-expression.ts';
import { projectCounters } from './project-totals.ts';
import { countRanges, type KeyRange, queryRangesPage, type RangePosition } from './query-page.ts';
import { CURRENT_SHEET_CONDITION, SUPERSEDED_SHEETS_COUNTER } from './revision-store.ts';
import { facetsOfSections } from './section-facets.ts';
import { entities, pad, partitions, TABLE_DESIGN } from './table.ts';

/** A listing's cursor position: where it stopped, and the total counted for its first page. */
interface ListingPosition extends RangePosition {
  total: number;
}

function listingPosition(position: unknown | null): ListingPosition | null {
  if (position === null) return null;
  const candidate = position as Partial<ListingPosition> | null;
  if (
    typeof candidate === 'object' &&
    candidate !== null &&
    Number.isInteger(candidate.range) &&
    Number.isInteger(candidate.total) &&
    typeof candidate.key === 'object' &&
    candidate.key !== null
  )
    return candidate as ListingPosition;
  // A cursor sealed by an earlier version of this listing.
  throw new InvalidRequestError(
    'invalid_cursor',
    'The cursor is not valid for this request. Start again without a cursor.',
  );
}

type Options = { limit: number; position: unknown | null };

const REGION_ATTRIBUTES = ['regionType', 'drawingType', 'layoutType', 'pageNumber'] as const;

/**
 * Listings read only the key ranges their filters allow (one file, one sheet, the files a name or
 * classification matches, or an index of one region type or page number), and count their total
 * once, on the first page, from the documents' content summaries when the filters allow it; the
 * total rides in the cursor to the later pages.
 */
export class DynamoContentReader implements ContentReader {
  private readonly client: DynamoDBDocumentClient;
  private readonly tableName: string;

  constructor(client: DynamoDBDocumentClient, tableName: string) {
    this.client = client;
    this.tableName = tableName;
  }

  private async listed<T>(
    entity: { parse(item: Record<string, unknown>): T },
    ranges: KeyRange[],
    filter: Filter,
    options: Options,
    total: (count: () => Promise<number>) => Promise<number>,
  ): Promise<Paged<T>> {
    const { extraValues, ...expression } = filter.apply();
    const rangeFilter = { ...expression, values: extraValues };
    const position = listingPosition(options.position);
    const counted =
      position?.total ?? (await total(() => countRanges(this.client, this.tableName, ranges, rangeFilter)));
    const page = await queryRangesPage<T>(this.client, this.tableName, ranges, rangeFilter, {
      limit: options.limit,
      position,
      map: (item) => entity.parse(item),
    });
    const withTotal = (at: RangePosition) => ({ ...at, total: counted });
    return {
      items: page.items,
      nextPosition: page.nextPosition ? withTotal(page.nextPosition) : null,
      positions: page.positions.map(withTotal),
      total: counted,
    };
  }

  /** One counter of the project's counters item (0 when absent). */
  private async counter(projectId: string, name: string): Promise<number> {
    const value = (await projectCounters(this.client, this.tableName, projectId))[name];
    return typeof value === 'number' ? value : 0;
  }

  /** The project's documents a file filter keeps, in file order (the order of content keys). */
  private async filesMatching(
    projectId: string,
    filter: { fileId?: string; fileName?: string; classification?: string },
  ): Promise<DocumentSummaryRow[]> {
    // The reader serves read routes, whose role may not write: it counts without storing.
    const rows = await documentSummaries(this.client, this.tableName, projectId, { store: false });
    const name = filter.fileName?.toLowerCase();
    return rows
      .filter(
        (row) =>
          (filter.fileId === undefined || row.fileId === filter.fileId) &&
          (name === undefined || row.fileNameLower.includes(name)) &&
          (filter.classification === undefined || row.classification === filter.classification),
      )
      .sort((a, b) => (a.fileId < b.fileId ? -1 : a.fileId > b.fileId ? 1 : 0));
  }

  /** The ranges of one content kind: one file's, the matching files', or the whole project's. */
  private async fileRanges(
    projectId: string,
    prefix: string,
    filter: { fileId?: string; fileName?: string; classification?: string },
  ): Promise<KeyRange[]> {
    const partition = partitions.project(projectId);
    if (filter.fileId !== undefined) return [{ partition, prefix: `${prefix}${filter.fileId}#` }];
    if (filter.fileName === undefined && filter.classification === undefined) return [{ partition, prefix }];
    const files = await this.filesMatching(projectId, filter);
    return files.map((file) => ({ partition, prefix: `${prefix}${file.fileId}#` }));
  }

  private async regionRanges(projectId: string, filter: RegionFilter): Promise<KeyRange[]> {
    const partition = partitions.project(projectId);
    if (filter.sheetIds !== undefined) {
      const sheets = filter.sheetIds
        .map((sheetId) => contentIds.parseSheet(sheetId))
        .filter((sheet) => sheet !== null)
        .filter((sheet) => filter.fileId === undefined || sheet.fileId === filter.fileId)
        .map((sheet) => `${entities.region.prefix}${sheet.fileId}#${pad(sheet.page, 5)}#`);
      return [...new Set(sheets)].sort().map((prefix) => ({ partition, prefix }));
    }
    if (filter.fileId !== undefined) {
      const page = filter.pageNumber === undefined ? '' : `${pad(filter.pageNumber, 5)}#`;
      return [{ partition, prefix: `${entities.region.prefix}${filter.fileId}#${page}` }];
    }
    if (filter.pageNumber !== undefined)
      return [
        {
          index: TABLE_DESIGN.indexes.regionsByPage,
          partition: partitions.regionsOnPage(projectId, filter.pageNumber),
        },
      ];
    if (filter.regionType !== undefined)
      return [
        {
          index: TABLE_DESIGN.indexes.regionsByType,
          partition: partitions.regionsOfType(projectId, filter.regionType),
        },
      ];
    return this.fileRanges(projectId, entities.region.prefix, filter);
  }

  async regions(project: OwnedProjectRef, filter: RegionFilter, options: Options) {
    // The sheets are the ranges themselves (an IN filter would stop at 100 sheets).
    const conditions = new Filter()
      .eq('fileId', filter.fileId)
      .contains('fileNameLower', filter.fileName?.toLowerCase())
      .eq('classification', filter.classification)
      .eq('pageNumber', filter.pageNumber)
      .eq('regionType', filter.regionType)
      .eq('drawingType', filter.drawingType)
      .eq('layoutType', filter.layoutType);
    const attributes = REGION_ATTRIBUTES.filter((name) => filter[name] !== undefined);
    const summarized = filter.sheetIds === undefined && attributes.length <= 1;
    return this.listed(
      entities.region,
      await this.regionRanges(project.id, filter),
      conditions,
      options,
      async (count) => {
        if (!summarized) return count();
        const attribute = attributes[0];
        if (
          filter.fileId === undefined &&
          filter.fileName === undefined &&
          filter.classification === undefined
        ) {
          const counters = await projectCounters(this.client, this.tableName, project.id);
          // Documents whose summaries predate page counts (until upgraded) are counted instead.
          if (attribute === 'pageNumber' && Number(counters.pagesUncounted ?? 0) > 0) return count();
          const value = counters[attribute ? `${attribute}#${filter[attribute]}` : 'regions'];
          return typeof value === 'number' ? value : 0;
        }
        const files = await this.filesMatching(project.id, filter);
        let total = 0;
        for (const file of files) {
          const counted = summaryRegionCount(
            file.contentSummary,
            attribute ? { name: attribute, value: String(filter[attribute]) } : null,
          );
          if (counted === null) return count();
          total += counted;
        }
        return total;
      },
    );
  }

  async sheets(project: OwnedProjectRef, filter: SheetFilter, options: Options) {
    const conditions = new Filter()
      .eq('fileId', filter.fileId)
      .contains('fileNameLower', filter.fileName?.toLowerCase())
      .eq('sheetNumber', filter.sheetNumber);
    if (filter.discipline !== undefined) {
      conditions.parts.push('#disc.#code = :disc');
      conditions.names['#disc'] = 'discipline';
      conditions.names['#code'] = 'code';
      conditions.values[':disc'] = filter.discipline;
    }
    if (!filter.includeSuperseded) {
      conditions.parts.push(CURRENT_SHEET_CONDITION);
      conditions.values[':noSheet'] = null;
    }
    return this.listed(
      entities.sheet,
      await this.fileRanges(project.id, entities.sheet.prefix, filter),
      conditions,
      options,
      async (count) => {
        if (filter.sheetNumber !== undefined) return count();
        // The summaries count every sheet: once one may be superseded, current ones are counted.
        if (!filter.includeSuperseded && (await this.counter(project.id, SUPERSEDED_SHEETS_COUNTER)) > 0)
          return count();
        if (filter.fileId === undefined && filter.fileName === undefined)
          return this.counter(
            project.id,
            filter.discipline === undefined ? 'sheets' : `discipline#${filter.discipline}`,
          );
        const files = await this.filesMatching(project.id, filter);
        return files.reduce(
          (sum, file) =>
            sum +
            (filter.discipline === undefined
              ? file.contentSummary.sheets
              : (file.contentSummary.disciplines[filter.discipline]?.count ?? 0)),
          0,
        );
      },
    );
  }

  async sections(project: OwnedProjectRef, filter: SectionFilter, options: Options) {
    const conditions = new Filter()
      .eq('entity', 'specSection')
      .eq('fileId', filter.fileId)
      .eq('specId', filter.specId)
      .contains('fileNameLower', filter.fileName?.toLowerCase())
      .eq('classification', filter.classification)
      .eq('sectionNumber', filter.sectionNumber)
      .in('sectionNumber', filter.sectionNumbers)
      .gte('pageStart', filter.pageStart)
      .lte('pageEnd', filter.pageEnd);
    const summarized =
      filter.sectionNumber === undefined &&
      filter.sectionNumbers === undefined &&
      filter.pageStart === undefined &&
      filter.pageEnd === undefined;
    return this.listed(
      entities.specSection,
      await this.fileRanges(project.id, entities.specSection.prefix, filter),
      conditions,
      options,
      async (count) => {
        if (!summarized) return count();
        // One specification document: its own summary.
        if (filter.specId !== undefined) {
          const document = await this.document(project, filter.specId);
          return document?.fileId === (filter.fileId ?? document?.fileId)
            ? (document?.contentSummary?.sections ?? count())
            : 0;
        }
        if (
          filter.fileId === undefined &&
          filter.fileName === undefined &&
          filter.classification === undefined
        )
          return this.counter(project.id, 'sections');
        const files = await this.filesMatching(project.id, filter);
        return files.reduce((sum, file) => sum + file.contentSummary.sections, 0);
      },
    );
  }

  async facetsOfSections(project: OwnedProjectRef, sections: SpecSectionRecord[]) {
    return facetsOfSections(this.client, this.tableName, project.id, sections);
  }

  async documents(project: OwnedProjectRef, filter: DocumentFilter, options: Options) {
    // Documents keep the name as uploaded; compare case-insensitively on a lower-cased copy.
    const conditions = new Filter()
      .eq('classification', filter.classification)
      .contains('fileNameLower', filter.fileName?.toLowerCase());
    // As many rows as files: counting them is one short query.
    return this.listed(
      entities.document,
      [{ partition: partitions.project(project.id), prefix: entities.document.prefix }],
      conditions,
      options,
      (count) => count(),
    );
  }

  async document(project: OwnedProjectRef, documentId: string): Promise<DocumentRecord | null> {
    const result = await this.client.send(
      new GetCommand({ TableName: this.tableName, Key: entities.document.key(project.id, documentId) }),
    );
    return result.Item ? entities.document.parse(result.Item) : null;
  }

  async sheetExists(project: OwnedProjectRef, sheetId: string): Promise<boolean> {
    const sheet = contentIds.parseSheet(sheetId);
    if (!sheet) return false;
    const result = await this.client.send(
      new GetCommand({
        TableName: this.tableName,
        Key: entities.sheet.key(project.id, sheet.fileId, sheet.page),
        ProjectionExpression: 'pk',
      }),
    );
    return result.Item !== undefined;
  }

  async sectionNumbersReferencedBy(project: OwnedProjectRef, sheetIds: string[]): Promise<string[]> {
    const numbers = new Set<string>();
    for (const sheetId of sheetIds) {
      const sheet = contentIds.parseSheet(sheetId);
      if (!sheet) continue;
      const result = await this.client.send(
        new QueryCommand({
          TableName: this.tableName,
          KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
          ExpressionAttributeValues: {
            ':pk': partitions.project(project.id),
            ':prefix': `${entities.region.prefix}${sheet.fileId}#${pad(sheet.page, 5)}#`,
          },
          ProjectionExpression: 'normalizedData',
        }),
      );
      for (const item of result.Items ?? []) {
        const references =
          (item.normalizedData as { specReferences?: { sectionNumber: string }[] } | undefined)
            ?.specReferences ?? [];
        for (const reference of references) numbers.add(reference.sectionNumber);
      }
    }
    return [...numbers];
  }
}
