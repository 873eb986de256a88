import { join } from 'node:path';
import * as lancedb from '@lancedb/lancedb';
import type {
  IndexBuild,
  IndexedPassage,
  IndexHit,
  LexicalQuery,
  SearchFilter,
  SourceIndex,
} from '../../core/search/ports.ts';
import {
  DISPLAY,
  fromRow,
  HIT_COLUMNS,
  hitFromRow,
  passagesSchema,
  quote,
  type Row,
  SELECTED,
  toRow,
  whereClause,
} from './lancedb-rows.ts';

const PASSAGES = 'passages';
const BUILD = 'build';
/**
 * Rows from which the vector column gets an approximate (IVF-PQ) index. Without it each semantic query
 * reads the whole column from S3, 2 KB a row at 512 dimensions: at 5,000 rows 10 MB and 116 ms a query
 * against 0.7 MB and 44 ms with the index, built in about 11 s (npm run bench:search-sizing, figures
 * in docs/decisions.md). Below it the exact scan is cheap and exact.
 */
export const VECTOR_INDEX_MIN_ROWS = 5_000;
/**
 * Projects whose connection and open `passages` table one process keeps: more than a project search
 * fans out to (MAX_SEARCHED_PROJECTS), so one search reopens nothing it opened.
 */
export const OPEN_PROJECTS = 32;

/** PQ sub-vectors: a divisor of the dimension, about 4 dimensions each. */
function subVectorsFor(dimension: number): number {
  for (let count = Math.max(1, Math.round(dimension / 4)); count > 1; count--)
    if (dimension % count === 0) return count;
  return 1;
}

export interface LanceOptions {
  /** Locally: index locations `s3://bucket/key` are folders `{localRoot}/bucket/key`. */
  localRoot?: string;
  /** Options of the object store (region, endpoint) on AWS. */
  storageOptions?: Record<string, string>;
  /** Rows from which the vector column gets its IVF-PQ index (VECTOR_INDEX_MIN_ROWS). */
  vectorIndexMinRows?: number;
  /** Projects whose connection and open table are kept (OPEN_PROJECTS), the least recently used dropped. */
  openProjects?: number;
}

/** A map that keeps its `capacity` most recently used entries. */
export class LruMap<K, V> {
  private readonly entries = new Map<K, V>();
  readonly capacity: number;

  constructor(capacity: number) {
    this.capacity = capacity;
  }

  get(key: K): V | undefined {
    const value = this.entries.get(key);
    if (value === undefined) return undefined;
    // A Map iterates in insertion order: re-inserting makes the key the most recent.
    this.entries.delete(key);
    this.entries.set(key, value);
    return value;
  }

  set(key: K, value: V): void {
    this.entries.delete(key);
    this.entries.set(key, value);
    while (this.entries.size > this.capacity) {
      const oldest = this.entries.keys().next().value as K;
      this.entries.delete(oldest);
    }
  }

  delete(key: K): void {
    this.entries.delete(key);
  }

  get size(): number {
    return this.entries.size;
  }
}

/**
 * The project source index on LanceDB: one database per project (a folder locally, an S3 prefix on
 * AWS), a `passages` table with two BM25 indexes (head and body tokens, with positions for phrase
 * queries) and the embedding column, and a one-row `build` table recording the embedder.
 */
export class LanceSourceIndex implements SourceIndex {
  private readonly options: LanceOptions;
  private readonly connections: LruMap<string, Promise<lancedb.Connection>>;
  /** Open `passages` tables by location: a query does not list and reopen the database's tables. */
  private readonly passageTables: LruMap<string, lancedb.Table>;
  /** Whether a table has the display column (read once per open table). */
  private readonly displayColumns = new WeakMap<lancedb.Table, Promise<boolean>>();

  constructor(options: LanceOptions) {
    this.options = options;
    const capacity = options.openProjects ?? OPEN_PROJECTS;
    this.connections = new LruMap(capacity);
    this.passageTables = new LruMap(capacity);
  }

  /** How many projects' connections are held (at most `openProjects`). */
  get openConnections(): number {
    return this.connections.size;
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
    // Opened directly, not looked up in a listing of the database first: one S3 LIST fewer per cold
    // open (and S3 emulators that list nothing still open it).
    let table: lancedb.Table;
    try {
      table = await db.openTable(PASSAGES);
    } catch (error) {
      if (/Table '[^']*' was not found/.test((error as Error).message)) return null;
      throw error;
    }
    this.passageTables.set(location, table);
    return table;
  }

  private hasDisplay(table: lancedb.Table): Promise<boolean> {
    let known = this.displayColumns.get(table);
    if (!known) {
      known = table.schema().then((schema) => schema.fields.some((field) => field.name === DISPLAY));
      this.displayColumns.set(table, known);
    }
    return known;
  }

  private async hitColumns(table: lancedb.Table): Promise<string[]> {
    return (await this.hasDisplay(table)) ? HIT_COLUMNS : SELECTED;
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
    // A table from before the display column gets rows without it (its hits read the other columns).
    const withDisplay = await this.hasDisplay(table);
    if (passages.length > 0)
      await table.add(
        passages.map((passage) => {
          const row = toRow(passage);
          if (!withDisplay) delete row[DISPLAY];
          return row;
        }),
      );
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
    // Past this size an exact scan reads the whole vector column from S3 on every semantic query:
    // build an approximate (IVF-PQ) index once; `optimize` folds later rows into it, and rows not yet
    // in it are still scanned.
    const rows = indices.has('vector') ? 0 : await table.countRows();
    if (rows >= (this.options.vectorIndexMinRows ?? VECTOR_INDEX_MIN_ROWS))
      await this.buildVectorIndex(location, build.dimension);
    await table.optimize({ cleanupOlderThan: new Date(Date.now() - 10 * 60_000) });
  }

  /** Builds the IVF-PQ index of the vector column (√rows partitions) over the rows the table holds. */
  async buildVectorIndex(location: string, dimension: number): Promise<void> {
    const table = await this.openPassages(location);
    if (!table) return;
    const rows = await table.countRows();
    await table.createIndex('vector', {
      config: lancedb.Index.ivfPq({
        distanceType: 'cosine',
        numPartitions: Math.max(1, Math.round(Math.sqrt(rows))),
        numSubVectors: subVectorsFor(dimension),
      }),
    });
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
    // BM25 counts a term once per time the query writes it: the query's own terms written `repeats`
    // times beside the expansion's once weigh the expansion at 1 / repeats (a weight of 1 or more: the
    // expansion written that many times) in one top-k query, which the engine prunes (a boolean query
    // of the two scores every passage that matches either: three to five times slower at 100k passages).
    const weight = query.expansionWeight ?? 0.5;
    const expanded = (query.expansion?.length ?? 0) > 0;
    const repeats = expanded && weight < 1 ? Math.min(8, Math.round(1 / weight)) : 1;
    const expansionRepeats = weight >= 1 ? Math.round(weight) : 1;
    const words = [
      ...Array.from({ length: repeats }, () => query.terms).flat(),
      ...Array.from({ length: expansionRepeats }, () => query.expansion ?? []).flat(),
    ];
    // One field: the body holds the heading twice (index-file.ts), which weighs it as a boost of
    // the heading's own field did, at a third of the cost (a two-field match reads two posting lists per word).
    const match = new lancedb.MatchQuery(words.join(' '), 'body_tokens');
    // An optional phrase counts as much as the query's own words: `repeats` times.
    const phrases = (query.optionalPhrases ?? []).map(
      (phrase) => new lancedb.PhraseQuery(phrase.join(' '), 'body_tokens'),
    );
    const musts: lancedb.FullTextQuery[] = [
      ...(query.inHead?.length ? [new lancedb.MatchQuery(query.inHead.join(' '), 'head_tokens')] : []),
      ...query.phrases.map((phrase) => new lancedb.PhraseQuery(phrase.join(' '), 'body_tokens')),
    ];
    const hitColumns = await this.hitColumns(table);
    const where = whereClause(filter);
    const run = async (fts: lancedb.FullTextQuery): Promise<IndexHit[]> => {
      let search = table
        .query()
        .fullTextSearch(fts)
        .select([...hitColumns, '_score'])
        .limit(limit);
      if (where) search = search.where(where);
      const rows = (await search.toArray()) as Row[];
      return rows.map((row) => ({ passage: hitFromRow(row), score: Number(row._score) }));
    };
    const should = (clause: lancedb.FullTextQuery): [lancedb.Occur, lancedb.FullTextQuery] => [
      lancedb.Occur.Should,
      clause,
    ];
    if (musts.length > 0)
      return run(
        new lancedb.BooleanQuery([
          should(match),
          ...phrases.flatMap((phrase) => Array.from({ length: repeats }, () => should(phrase))),
          ...musts.map((clause): [lancedb.Occur, lancedb.FullTextQuery] => [lancedb.Occur.Must, clause]),
        ]),
      );
    if (phrases.length === 0) return run(match);
    // The optional phrases are one query of their own (a phrase matches few passages, so its top k is
    // most of them), their scores added to the match's, as a boolean query over both would add them.
    const [matched, phrased] = await Promise.all([
      run(match),
      run(
        phrases.length === 1
          ? (phrases[0] as lancedb.FullTextQuery)
          : new lancedb.BooleanQuery(phrases.map(should)),
      ),
    ]);
    const summed = new Map(matched.map((hit) => [hit.passage.passageId, { ...hit }]));
    for (const hit of phrased) {
      const seen = summed.get(hit.passage.passageId);
      if (seen) seen.score += repeats * hit.score;
      else summed.set(hit.passage.passageId, { ...hit, score: repeats * hit.score });
    }
    return [...summed.values()].sort((a, b) => b.score - a.score).slice(0, limit);
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
      .select([...(await this.hitColumns(table)), '_distance'])
      .limit(limit);
    const where = whereClause(filter);
    if (where) search = search.where(where);
    const rows = (await search.toArray()) as Row[];
    return rows.map((row) => ({ passage: hitFromRow(row), score: 1 - Number(row._distance) }));
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
