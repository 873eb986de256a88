import { type DynamoDBDocumentClient, GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type {
  DocumentRecord,
  FacetRecord,
  RegionRecord,
  SheetRecord,
  SpecSectionRecord,
} from '../../core/content/model.ts';
import { contentIds } from '../../core/content/model.ts';
import type {
  ContentReader,
  DocumentFilter,
  Paged,
  RegionFilter,
  SectionFilter,
  SheetFilter,
} from '../../core/content/ports.ts';
import type { OwnedProjectRef } from '../../core/projects/model.ts';
import { prefixQuery, queryAll, queryCount, queryPage } from './query-page.ts';
import { keys, pad, recordOf } from './table.ts';

/** Builds `a = :a AND b IN (...)` filter expressions with safe placeholder names. */
class Filter {
  readonly parts: string[] = [];
  readonly names: Record<string, string> = {};
  readonly values: Record<string, unknown> = {};
  private n = 0;

  private name(field: string): string {
    const placeholder = `#f${this.n++}`;
    this.names[placeholder] = field;
    return placeholder;
  }

  private value(value: unknown): string {
    const placeholder = `:v${this.n++}`;
    this.values[placeholder] = value;
    return placeholder;
  }

  eq(field: string, value: unknown): this {
    if (value !== undefined) this.parts.push(`${this.name(field)} = ${this.value(value)}`);
    return this;
  }

  gte(field: string, value: number | undefined): this {
    if (value !== undefined) this.parts.push(`${this.name(field)} >= ${this.value(value)}`);
    return this;
  }

  lte(field: string, value: number | undefined): this {
    if (value !== undefined) this.parts.push(`${this.name(field)} <= ${this.value(value)}`);
    return this;
  }

  contains(field: string, value: string | undefined): this {
    if (value !== undefined) this.parts.push(`contains(${this.name(field)}, ${this.value(value)})`);
    return this;
  }

  in(field: string, values: unknown[] | undefined): this {
    if (values === undefined) return this;
    if (values.length === 0) {
      this.parts.push(`${this.name(field)} = ${this.value('\u0000none')}`);
      return this;
    }
    const name = this.name(field);
    this.parts.push(`${name} IN (${values.map((value) => this.value(value)).join(', ')})`);
    return this;
  }

  apply() {
    return this.parts.length
      ? {
          FilterExpression: this.parts.join(' AND '),
          ExpressionAttributeNames: this.names,
          extraValues: this.values,
        }
      : { extraValues: {} };
  }
}

export class DynamoContentReader implements ContentReader {
  private readonly client: DynamoDBDocumentClient;
  private readonly tableName: string;

  constructor(client: DynamoDBDocumentClient, tableName: string) {
    this.client = client;
    this.tableName = tableName;
  }

  private async paged<T>(
    projectId: string,
    prefix: string,
    filter: Filter,
    options: { limit: number; position: unknown | null },
  ): Promise<Paged<T>> {
    const { extraValues, ...expression } = filter.apply();
    const input = {
      TableName: this.tableName,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ...expression,
      ExpressionAttributeValues: { ':pk': `PROJECT#${projectId}`, ':prefix': prefix, ...extraValues },
    };
    const [page, total] = await Promise.all([
      queryPage<T>(this.client, input, {
        ...options,
        keyOf: (item) => ({ pk: item.pk, sk: item.sk }),
        map: (item) => recordOf<T>(item),
      }),
      queryCount(this.client, input),
    ]);
    return { ...page, total };
  }

  async regions(
    project: OwnedProjectRef,
    filter: RegionFilter,
    options: { limit: number; position: unknown | null },
  ) {
    // Narrow the key range when one file or one sheet is asked for; the rest are filters.
    let prefix: string = keys.regionPrefix;
    const single = filter.sheetIds?.length === 1 ? contentIds.parseSheet(filter.sheetIds[0] as string) : null;
    if (single && (!filter.fileId || filter.fileId === single.fileId))
      prefix = `${keys.regionPrefix}${single.fileId}#${pad(single.page, 5)}#`;
    else if (filter.fileId) prefix = `${keys.regionPrefix}${filter.fileId}#`;
    const conditions = new Filter()
      .in('sheetId', filter.sheetIds)
      .eq('fileId', filter.fileId)
      .contains('fileNameLower', filter.fileName?.toLowerCase())
      .eq('classification', filter.classification)
      .eq('pageNumber', filter.pageNumber)
      .eq('regionType', filter.regionType)
      .eq('drawingType', filter.drawingType)
      .eq('layoutType', filter.layoutType);
    return this.paged<RegionRecord>(project.id, prefix, conditions, options);
  }

  async sheets(
    project: OwnedProjectRef,
    filter: SheetFilter,
    options: { limit: number; position: unknown | null },
  ) {
    const prefix = filter.fileId ? `${keys.sheetPrefix}${filter.fileId}#` : keys.sheetPrefix;
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
    return this.paged<SheetRecord>(project.id, prefix, conditions, options);
  }

  async sections(
    project: OwnedProjectRef,
    filter: SectionFilter,
    options: { limit: number; position: unknown | null },
  ) {
    const prefix = filter.fileId ? `${keys.specPrefix}${filter.fileId}#` : keys.specPrefix;
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
    return this.paged<SpecSectionRecord>(project.id, prefix, conditions, options);
  }

  async facetsOf(project: OwnedProjectRef, section: SpecSectionRecord): Promise<FacetRecord[]> {
    const sectionKey = keys.specSection(project.id, section.fileId, section.sectionIndex);
    const items = await queryAll(
      this.client,
      prefixQuery(this.tableName, sectionKey.pk, `${sectionKey.sk}#F#`),
    );
    return items.map((item) => recordOf<FacetRecord>(item));
  }

  async documents(
    project: OwnedProjectRef,
    filter: DocumentFilter,
    options: { limit: number; position: unknown | null },
  ) {
    const conditions = new Filter().eq('classification', filter.classification);
    if (filter.fileName !== undefined) {
      // Documents keep the name as uploaded; compare case-insensitively on a lower-cased copy.
      conditions.contains('fileNameLower', filter.fileName.toLowerCase());
    }
    return this.paged<DocumentRecord>(project.id, keys.documentPrefix, conditions, options);
  }

  async document(project: OwnedProjectRef, documentId: string): Promise<DocumentRecord | null> {
    const result = await this.client.send(
      new GetCommand({ TableName: this.tableName, Key: keys.document(project.id, documentId) }),
    );
    return result.Item ? recordOf<DocumentRecord>(result.Item) : null;
  }

  async sheetExists(project: OwnedProjectRef, sheetId: string): Promise<boolean> {
    const sheet = contentIds.parseSheet(sheetId);
    if (!sheet) return false;
    const result = await this.client.send(
      new GetCommand({
        TableName: this.tableName,
        Key: keys.sheet(project.id, sheet.fileId, sheet.page),
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
            ':pk': `PROJECT#${project.id}`,
            ':prefix': `${keys.regionPrefix}${sheet.fileId}#${pad(sheet.page, 5)}#`,
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
