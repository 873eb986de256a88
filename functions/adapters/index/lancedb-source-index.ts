import { join } from 'node:path';
import * as lancedb from '@lancedb/lancedb';
import { Field, FixedSizeList, Float32, Int32, Schema, Utf8 } from 'apache-arrow';
import type {
  IndexBuild,
  IndexedPassage,
  IndexHit,
  LexicalQuery,
  SearchFilter,
  SourceIndex,
} from '../../core/search/ports.ts';
import type { Passage } from '../../core/search/sources.ts';

const PASSAGES = 'passages';
const BUILD = 'build';

type Row = Record<string, unknown>;

const COLUMNS = [
  'passage_id',
  'source_uri',
  'entity_type',
  'source_kind',
  'source_id',
  'label',
  'document_id',
  'file_id',
  'file_name',
  'file_name_lower',
  'page_number',
  'page_end',
  'box',
  'sheet_number',
  'sheet_key',
  'region_type',
  'drawing_type',
  'layout_type',
  'classification',
  'head',
  'text',
  'body_tokens',
  'artifact',
];

function passagesSchema(dimension: number): Schema {
  const text = (name: string) => new Field(name, new Utf8(), false);
  return new Schema([
    ...COLUMNS.filter((name) => !['page_number', 'page_end', 'box', 'artifact'].includes(name)).map(text),
    new Field('box', new Utf8(), true),
    new Field('artifact', new Utf8(), true),
    new Field('page_number', new Int32(), false),
    new Field('page_end', new Int32(), false),
    text('head_tokens'),
    new Field('vector', new FixedSizeList(dimension, new Field('item', new Float32(), true)), false),
  ]);
}

/** Rows from which the vector column gets an approximate index (below it, exact search is fast). */
export const VECTOR_INDEX_MIN_ROWS = 50_000;

/** PQ sub-vectors: a divisor of the dimension, about 4 dimensions each. */
function subVectorsFor(dimension: number): number {
  for (let count = Math.max(1, Math.round(dimension / 4)); count > 1; count--)
    if (dimension % count === 0) return count;
  return 1;
}

const quote = (value: string) => `'${value.replaceAll("'", "''")}'`;

/** The SQL filter of a search (every value quoted; column names are ours). */
export function whereClause(filter: SearchFilter): string | null {
  const parts: string[] = [];
  if (filter.entityTypes?.length) parts.push(`entity_type IN (${filter.entityTypes.map(quote).join(', ')})`);
  if (filter.regionType) parts.push(`region_type = ${quote(filter.regionType)}`);
  if (filter.layoutType) parts.push(`layout_type = ${quote(filter.layoutType)}`);
  if (filter.drawingType) parts.push(`drawing_type = ${quote(filter.drawingType)}`);
  if (filter.sheetKey) parts.push(`sheet_key = ${quote(filter.sheetKey)}`);
  if (filter.classification) parts.push(`classification = ${quote(filter.classification)}`);
  if (filter.pageNumber !== undefined)
    parts.push(
      `page_number <= ${Math.trunc(filter.pageNumber)} AND page_end >= ${Math.trunc(filter.pageNumber)}`,
    );
  if (filter.fileName) parts.push(`strpos(file_name_lower, ${quote(filter.fileName.toLowerCase())}) > 0`);
  if (filter.fileIds)
    parts.push(filter.fileIds.length ? `file_id IN (${filter.fileIds.map(quote).join(', ')})` : 'false');
  if (filter.sourceUris)
    parts.push(
      filter.sourceUris.length ? `source_uri IN (${filter.sourceUris.map(quote).join(', ')})` : 'false',
    );
  return parts.length > 0 ? parts.join(' AND ') : null;
}

function toRow(passage: IndexedPassage): Row {
  return {
    passage_id: passage.passageId,
    source_uri: passage.sourceUri,
    entity_type: passage.entityType,
    source_kind: passage.sourceKind,
    source_id: passage.sourceId,
    label: passage.label,
    document_id: passage.documentId,
    file_id: passage.fileId,
    file_name: passage.fileName,
    file_name_lower: passage.fileName.toLowerCase(),
    page_number: passage.pageNumber,
    page_end: passage.pageEnd,
    box: passage.box ? JSON.stringify(passage.box) : null,
    sheet_number: passage.sheetNumber,
    sheet_key: passage.sheetKey,
    region_type: passage.regionType,
    drawing_type: passage.drawingType,
    layout_type: passage.layoutType,
    classification: passage.classification,
    head: passage.head,
    text: passage.text,
    head_tokens: passage.headTokens,
    body_tokens: passage.bodyTokens,
    artifact: passage.artifact ? JSON.stringify(passage.artifact) : null,
    vector: passage.vector,
  };
}

function fromRow(row: Row): Passage {
  return {
    passageId: String(row.passage_id),
    sourceUri: String(row.source_uri),
    entityType: row.entity_type as Passage['entityType'],
    sourceKind: row.source_kind as Passage['sourceKind'],
    sourceId: String(row.source_id),
    label: String(row.label),
    documentId: String(row.document_id),
    fileId: String(row.file_id),
    fileName: String(row.file_name),
    pageNumber: Number(row.page_number),
    pageEnd: Number(row.page_end),
    box: typeof row.box === 'string' ? (JSON.parse(row.box) as Passage['box']) : null,
    sheetNumber: String(row.sheet_number),
    regionType: String(row.region_type),
    drawingType: String(row.drawing_type),
    layoutType: String(row.layout_type),
    classification: String(row.classification),
    head: String(row.head),
    text: String(row.text),
    artifact: typeof row.artifact === 'string' ? (JSON.parse(row.artifact) as Passage['artifact']) : null,
  };
}

/** What a read returns: the passage, not its analyzed tokens (the largest column, read by the indexes only). */
const SELECTED = COLUMNS.filter((name) => name !== 'body_tokens');

export interface LanceOptions {
  /** Locally: index locations `s3://bucket/key` are folders `{localRoot}/bucket/key`. */
  localRoot?: string;
  /** Options of the object store (region, endpoint) on AWS. */
  storageOptions?: Record<string, string>;
}

/**
 * The project source index on LanceDB: one database per project (a folder locally, an S3 prefix on
 * AWS), a `passages` table with two BM25 indexes (head and body tokens, with positions for phrase
 * queries) and the embedding column, and a one-row `build` table recording the embedder.
 */
export class LanceSourceIndex implements SourceIndex {
  private readonly options: LanceOptions;
  private readonly connections = new Map<string, Promise<lancedb.Connection>>();
  /** Open `passages` tables by location: a query does not list and reopen the database's tables. */
  private readonly passageTables = new Map<string, lancedb.Table>();

  constructor(options: LanceOptions) {
    this.options = options;
  }

  private uri(location: string): string {
    const root = this.options.localRoot;
    if (!root) return location;
    const match = /^s3:\/\/([^/]+)\/(.*)$/.exec(location);
    if (!match) throw new Error('Index location is not an s3:// URI');
    return join(root, match[1] as string, match[2] as string);
  }

  private connect(location: string): Promise<lancedb.Connection> {
    let connection = this.connections.get(location);
    if (!connection) {
      connection = lancedb.connect(this.uri(location), {
        readConsistencyInterval: 0,
        ...(this.options.storageOptions ? { storageOptions: this.options.storageOptions } : {}),
      });
      connection.catch(() => this.connections.delete(location));
      this.connections.set(location, connection);
    }
    return connection;
  }

  /** The open `passages` table (reads see its latest version: readConsistencyInterval 0), or null before the first write. */
  private async openPassages(location: string): Promise<lancedb.Table | null> {
    const cached = this.passageTables.get(location);
    if (cached) return cached;
    const db = await this.connect(location);
    if (!(await db.tableNames()).includes(PASSAGES)) return null;
    const table = await db.openTable(PASSAGES);
    this.passageTables.set(location, table);
    return table;
  }

  async readBuild(location: string, names?: string[]): Promise<IndexBuild | null> {
    const db = await this.connect(location);
    if (!(names ?? (await db.tableNames())).includes(BUILD)) return null;
    const rows = await (await db.openTable(BUILD)).query().limit(1).toArray();
    const row = rows[0] as Row | undefined;
    return row
      ? { embedder: String(row.embedder), dimension: Number(row.dimension), analyzer: String(row.analyzer) }
      : null;
  }

  async replaceFile(location: string, build: IndexBuild, fileId: string, passages: IndexedPassage[]) {
    const db = await this.connect(location);
    const existing = await this.readBuild(location, await db.tableNames());
    if (existing && (existing.embedder !== build.embedder || existing.dimension !== build.dimension))
      throw new IndexBuildMismatchError(existing, build);
    if (existing?.analyzer !== build.analyzer)
      await db.createTable(BUILD, [{ ...build }], { mode: 'overwrite' });

    let table = await this.openPassages(location);
    if (!table) {
      table = await db.createEmptyTable(PASSAGES, passagesSchema(build.dimension), { existOk: true });
      this.passageTables.set(location, table);
    }
    await table.delete(`file_id = ${quote(fileId)}`);
    if (passages.length > 0) await table.add(passages.map(toRow));
    const indices = new Set((await table.listIndices()).map((index) => index.columns.join(',')));
    for (const column of ['head_tokens', 'body_tokens'])
      if (!indices.has(column))
        await table.createIndex(column, {
          config: lancedb.Index.fts({
            baseTokenizer: 'whitespace',
            lowercase: false,
            stem: false,
            removeStopWords: false,
            asciiFolding: false,
            withPosition: true,
            maxTokenLength: 64,
          }),
        });
    // Past this size an exact vector scan costs tens of milliseconds: build an approximate (IVF-PQ)
    // index once; `optimize` folds later rows into it, and rows not yet in it are still scanned.
    const rows = indices.has('vector') ? 0 : await table.countRows();
    if (rows >= VECTOR_INDEX_MIN_ROWS) {
      await table.createIndex('vector', {
        config: lancedb.Index.ivfPq({
          distanceType: 'cosine',
          numPartitions: Math.max(1, Math.round(Math.sqrt(rows))),
          numSubVectors: subVectorsFor(build.dimension),
        }),
      });
    }
    await table.optimize({ cleanupOlderThan: new Date(Date.now() - 10 * 60_000) });
  }

  async reset(location: string) {
    const db = await this.connect(location);
    const names = await db.tableNames();
    this.passageTables.delete(location);
    for (const name of [PASSAGES, BUILD]) if (names.includes(name)) await db.dropTable(name);
  }

  async removeFile(location: string, fileId: string) {
    const table = await this.openPassages(location);
    if (table) await table.delete(`file_id = ${quote(fileId)}`);
  }

  async lexical(
    location: string,
    query: LexicalQuery,
    filter: SearchFilter,
    limit: number,
  ): Promise<IndexHit[]> {
    const table = await this.openPassages(location);
    if (!table || query.terms.length === 0) return [];
    const match = new lancedb.MultiMatchQuery(query.terms.join(' '), ['head_tokens', 'body_tokens'], {
      boosts: [2, 1],
    });
    const clauses: [lancedb.Occur, lancedb.FullTextQuery][] = [
      ...(query.expansion?.length
        ? [
            [
              lancedb.Occur.Should,
              new lancedb.MultiMatchQuery(query.expansion.join(' '), ['head_tokens', 'body_tokens'], {
                boosts: [2 * (query.expansionWeight ?? 0.5), query.expansionWeight ?? 0.5],
              }),
            ] as [lancedb.Occur, lancedb.FullTextQuery],
          ]
        : []),
      ...(query.expansionPhrases ?? []).map(
        (phrase) =>
          [lancedb.Occur.Should, new lancedb.PhraseQuery(phrase.join(' '), 'body_tokens')] as [
            lancedb.Occur,
            lancedb.FullTextQuery,
          ],
      ),
      ...(query.inHead?.length
        ? [
            [lancedb.Occur.Must, new lancedb.MatchQuery(query.inHead.join(' '), 'head_tokens')] as [
              lancedb.Occur,
              lancedb.FullTextQuery,
            ],
          ]
        : []),
      ...query.phrases.map(
        (phrase) =>
          [lancedb.Occur.Must, new lancedb.PhraseQuery(phrase.join(' '), 'body_tokens')] as [
            lancedb.Occur,
            lancedb.FullTextQuery,
          ],
      ),
    ];
    const fts: lancedb.FullTextQuery =
      clauses.length > 0 ? new lancedb.BooleanQuery([[lancedb.Occur.Should, match], ...clauses]) : match;
    let search = table
      .query()
      .fullTextSearch(fts)
      .select([...SELECTED, '_score'])
      .limit(limit);
    const where = whereClause(filter);
    if (where) search = search.where(where);
    const rows = (await search.toArray()) as Row[];
    return rows.map((row) => ({ passage: fromRow(row), score: Number(row._score) }));
  }

  async nearest(
    location: string,
    vector: number[],
    filter: SearchFilter,
    limit: number,
  ): Promise<IndexHit[]> {
    const table = await this.openPassages(location);
    if (!table) return [];
    let search = table
      .query()
      .nearestTo(vector)
      .distanceType('cosine')
      .select([...SELECTED, '_distance'])
      .limit(limit);
    const where = whereClause(filter);
    if (where) search = search.where(where);
    const rows = (await search.toArray()) as Row[];
    return rows.map((row) => ({ passage: fromRow(row), score: 1 - Number(row._distance) }));
  }

  async passagesOf(location: string, sourceUri: string) {
    const table = await this.openPassages(location);
    if (!table) return [];
    const rows = (await table
      .query()
      .where(`source_uri = ${quote(sourceUri)}`)
      .select(SELECTED)
      .limit(10_000)
      .toArray()) as Row[];
    const order = (row: Row) => Number(String(row.passage_id).split('#').pop());
    return rows.sort((a, b) => order(a) - order(b)).map(fromRow);
  }

  async inventory(location: string) {
    const build = await this.readBuild(location);
    const files = new Map<string, { passages: number }>();
    const table = await this.openPassages(location);
    if (!table) return { build, files };
    for await (const batch of table.query().select(['file_id'])) {
      for (const row of batch.toArray() as Row[]) {
        const fileId = String(row.file_id);
        files.set(fileId, { passages: (files.get(fileId)?.passages ?? 0) + 1 });
      }
    }
    return { build, files };
  }

  async size(location: string) {
    const table = await this.openPassages(location);
    return table ? table.countRows() : 0;
  }
}

export class IndexBuildMismatchError extends Error {
  constructor(existing: IndexBuild, wanted: IndexBuild) {
    super(
      `The index was built with ${existing.embedder} (${existing.dimension} dimensions); ` +
        `passages from ${wanted.embedder} (${wanted.dimension}) cannot be mixed into it`,
    );
    this.name = 'IndexBuildMismatchError';
  }
}
