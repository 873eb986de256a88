import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as lancedb from '@lancedb/lancedb';
import { afterEach, describe, expect, it } from 'vitest';
import {
  LanceSourceIndex,
  LruMap,
  OPEN_PROJECTS,
  VECTOR_INDEX_MIN_ROWS,
} from '../../../functions/adapters/index/lancedb-source-index.ts';
import { ANALYZER_VERSION, analyzeText, sheetKey } from '../../../functions/core/search/analyzer.ts';
import type { IndexedPassage } from '../../../functions/core/search/ports.ts';
import { PROJECT_SEARCH_FANOUT } from '../../../functions/core/search/search-projects.ts';

const BUILD = { embedder: 'test:fixed', dimension: 4, analyzer: ANALYZER_VERSION };
const LOCATION = 's3://indexes/projects/prj_1';

function passage(fileNumber: number, text: string): IndexedPassage {
  const head = `A-10${fileNumber} GENERAL NOTES`;
  return {
    passageId: `reg_${fileNumber}#0`,
    sourceUri: `service://projects/prj_1/regions/reg_${fileNumber}`,
    entityType: 'region',
    sourceKind: 'region',
    sourceId: `reg_${fileNumber}`,
    label: `A-10${fileNumber} · GENERAL NOTES`,
    documentId: `doc_${fileNumber}`,
    fileId: `fil_${fileNumber}`,
    fileName: `set-${fileNumber}.pdf`,
    pageNumber: fileNumber,
    pageEnd: fileNumber,
    box: { left: 10, top: 20, right: 300, bottom: 400 },
    sheetNumber: `A-10${fileNumber}`,
    regionType: 'notes',
    drawingType: '',
    layoutType: 'drawing_sheet',
    classification: 'plans',
    head,
    text,
    artifact: null,
    sheetKey: sheetKey(`A-10${fileNumber}`),
    headTokens: analyzeText(head),
    bodyTokens: analyzeText(`${head}\n${text}`),
    vector: [1, fileNumber, 0, 0],
  };
}

const shown = (item: IndexedPassage) => ({
  passageId: item.passageId,
  sourceUri: item.sourceUri,
  entityType: item.entityType,
  sourceId: item.sourceId,
  label: item.label,
  documentId: item.documentId,
  fileId: item.fileId,
  fileName: item.fileName,
  pageNumber: item.pageNumber,
  pageEnd: item.pageEnd,
  sheetNumber: item.sheetNumber,
  box: item.box,
  head: item.head,
  text: item.text,
});

describe('LanceDB source index', () => {
  const roots: string[] = [];
  afterEach(() => {
    for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
  });
  const newRoot = () => {
    const root = mkdtempSync(join(tmpdir(), 'psa-lance-'));
    roots.push(root);
    return root;
  };

  it('hits show what their passage shows, by keyword and by vector', async () => {
    // Prepare
    const index = new LanceSourceIndex({ localRoot: newRoot() });
    const written = passage(1, 'Gypsum board partitions to the underside of the deck.');
    await index.replaceFile(LOCATION, BUILD, written.fileId, [written]);

    // Act
    const [lexical] = await index.lexical(
      LOCATION,
      { terms: analyzeText('gypsum').split(' '), phrases: [] },
      {},
      5,
    );
    const [nearest] = await index.nearest(LOCATION, [1, 1, 0, 0], {}, 5);

    // Assess
    expect(lexical?.passage).toEqual(shown(written));
    expect(nearest?.passage).toEqual(shown(written));
  });

  it('keeps at most OPEN_PROJECTS projects open, more than one project search reads, the least recently used dropped', async () => {
    // Prepare: a warm function that has searched more projects than it keeps.
    const index = new LanceSourceIndex({ localRoot: newRoot() });
    const small = new LanceSourceIndex({ localRoot: newRoot(), openProjects: 2 });
    const locations = Array.from({ length: OPEN_PROJECTS + 8 }, (_, n) => `s3://indexes/projects/prj_${n}`);

    // Act
    for (const location of locations) await index.size(location);
    for (const location of locations.slice(0, 3)) await small.size(location);

    // Assess
    expect(OPEN_PROJECTS).toBeGreaterThanOrEqual(PROJECT_SEARCH_FANOUT);
    expect(index.openConnections).toBe(OPEN_PROJECTS);
    expect(small.openConnections).toBe(2);
  });

  it('least recently used order: a read keeps an entry, the oldest other one goes', () => {
    const cache = new LruMap<string, number>(2);
    cache.set('a', 1);
    cache.set('b', 2);
    expect(cache.get('a')).toBe(1);
    cache.set('c', 3);
    expect([cache.get('a'), cache.get('b'), cache.get('c'), cache.size]).toEqual([1, undefined, 3, 2]);
  });

  it('gives the vector column its approximate index from VECTOR_INDEX_MIN_ROWS rows, measured on the S3 emulator', async () => {
    // Prepare: a threshold of 300 rows (IVF-PQ needs 256 to train), written 200 rows a file.
    const index = new LanceSourceIndex({ localRoot: newRoot(), vectorIndexMinRows: 300 });
    const file = (fileNumber: number) =>
      Array.from({ length: 200 }, (_, i) => ({
        ...passage(fileNumber, `note ${i}`),
        passageId: `reg_${fileNumber}_${i}#0`,
        vector: [1, fileNumber, i / 200, (i % 7) / 7],
      }));
    const vectorIndexed = async () => {
      const db = await lancedb.connect(join(roots.at(-1) as string, 'indexes/projects/prj_1'));
      const table = await db.openTable('passages');
      return (await table.listIndices()).some((entry) => entry.columns.includes('vector'));
    };

    // Act
    await index.replaceFile(LOCATION, BUILD, 'fil_1', file(1));
    const below = await vectorIndexed();
    await index.replaceFile(LOCATION, BUILD, 'fil_2', file(2));
    const above = await vectorIndexed();

    // Assess: the deployed threshold is the one bench:search-sizing chose (docs/decisions.md).
    expect([below, above]).toEqual([false, true]);
    expect(VECTOR_INDEX_MIN_ROWS).toBe(5_000);
  });

  it('an index written before the display column still answers, and takes new files', async () => {
    // Prepare: an index as an earlier version wrote it (no display column)
    const root = newRoot();
    const older = passage(1, 'Gypsum board partitions to the underside of the deck.');
    await new LanceSourceIndex({ localRoot: root }).replaceFile(LOCATION, BUILD, older.fileId, [older]);
    const table = await (await lancedb.connect(join(root, 'indexes', 'projects', 'prj_1'))).openTable(
      'passages',
    );
    await table.dropColumns(['display']);
    const index = new LanceSourceIndex({ localRoot: root });
    const newer = passage(2, 'Gypsum board ceilings in the corridors.');

    // Act
    await index.replaceFile(LOCATION, BUILD, newer.fileId, [newer]);
    const hits = await index.lexical(
      LOCATION,
      { terms: analyzeText('gypsum').split(' '), phrases: [] },
      {},
      5,
    );

    // Assess
    expect(hits.map((hit) => hit.passage).sort((a, b) => a.passageId.localeCompare(b.passageId))).toEqual([
      shown(older),
      shown(newer),
    ]);
  });
  it('expansion terms find passages at their weight, and an expansion phrase counts where its words stand together', async () => {
    // Prepare
    const index = new LanceSourceIndex({ localRoot: newRoot() });
    const own = passage(1, 'Delay penalty for each calendar day.');
    const expansionOnly = passage(2, 'Liquidated damages apply to work finished late on the site.');
    const wordsApart = passage(3, 'Damages repaired, then liquidated.');
    for (const item of [own, expansionOnly, wordsApart])
      await index.replaceFile(LOCATION, BUILD, item.fileId, [item]);
    const terms = analyzeText('delay penalty').split(' ');
    // The two words alone (the analyzer also writes the phrase's abbreviation, which would tell them apart).
    const expansion = ['liquid', 'damag'];

    // Act
    const expanded = await index.lexical(
      LOCATION,
      { terms, phrases: [], expansion, optionalPhrases: [expansion], expansionWeight: 0.5 },
      {},
      5,
    );
    const plain = await index.lexical(LOCATION, { terms, phrases: [] }, {}, 5);

    // Assess
    expect(expanded.map((hit) => hit.passage.passageId)).toEqual([
      own.passageId,
      expansionOnly.passageId,
      wordsApart.passageId,
    ]);
    expect(plain.map((hit) => hit.passage.passageId)).toEqual([own.passageId]);
  });
});
