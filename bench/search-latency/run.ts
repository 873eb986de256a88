/**
 * bench/search-latency: loads synthetic passages into one project's index (10k, then 100k) and
 * reports p50/p95 of `POST source-search` (hybrid, through the local API) beside the raw engine calls
 * (the same lexical, vector and heading-number queries the API makes, on the LanceDB adapter, in
 * process) in the same run, and the
 * API's floor: an authenticated GET of the project (key check, rate limit, one read) between them.
 *
 *   npm run bench:search-latency [-- --sizes 10000,100000] [--queries 200]
 *
 * The passages are synthetic (construction vocabulary, sheet and section numbers), so no corpus is
 * needed; CORPUS_DIR is not read.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { benchApi, createReadyProject } from '../local-api.ts';
import { percentile } from '../stats.ts';

const args = process.argv.slice(2);
const sizes = (args.includes('--sizes') ? String(args[args.indexOf('--sizes') + 1]) : '10000,100000')
  .split(',')
  .map(Number);
const queryCount = args.includes('--queries') ? Number(args[args.indexOf('--queries') + 1]) : 200;
const PASSAGES_PER_FILE = 2_000;

const dataDir = mkdtempSync(join(tmpdir(), 'psa-search-latency-'));
const { stack, orgId, call } = await benchApi({
  dataDir,
  persistDynamo: false,
  orgName: 'search-latency',
  credits: 1_000_000,
  plan: 'enterprise',
});
const { projectStore } = await import('../../functions/shared/container.ts');
const { sourceIndex, embedder, searchIndexStates } = await import(
  '../../functions/shared/search-container.ts'
);
const { preparePassages } = await import('../../functions/core/search/index-file.ts');
const { ANALYZER_VERSION } = await import('../../functions/core/search/analyzer.ts');
const { lexicalQueries } = await import('../../functions/core/search/search-sources.ts');
const { queryEmbeddingText } = await import('../../functions/core/search/query-expansion.ts');
const { config } = await import('../../functions/shared/config.ts');
const { dynamo } = await import('../../functions/shared/clients.ts');
const { PutCommand } = await import('@aws-sdk/lib-dynamodb');
const { keys } = await import('../../functions/adapters/dynamodb/table.ts');
const terms = (
  await import('../../functions/core/search/construction-terms.json', { with: { type: 'json' } })
).default;

// A deterministic generator, so runs are comparable.
let seed = 20261123;
const random = () => {
  seed = (seed * 1103515245 + 12345) % 2 ** 31;
  return seed / 2 ** 31;
};
const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)] as T;
const vocabulary = [
  ...new Set(
    terms.abbreviations
      .flatMap((row) => row.slice(1).join(' ').split(' '))
      .concat(terms.masterformat.flatMap((row) => String(row[1]).split(' '))),
  ),
].filter((word) => word.length > 2);
const abbreviations = terms.abbreviations.map((row) => row[0] as string);
const sheetNumber = () => `${pick(['A', 'S', 'M', 'E', 'P', 'C', 'L'])}-${Math.floor(random() * 900) + 100}`;
const sectionNumber = () => pick(terms.masterformat)[0] as string;
const sentence = () =>
  Array.from({ length: 40 + Math.floor(random() * 60) }, () =>
    random() < 0.08 ? pick(abbreviations) : random() < 0.04 ? sheetNumber() : pick(vocabulary),
  ).join(' ');

const projectId = await createReadyProject(call, 'Latency');
const record = await projectStore().get(orgId, projectId);
const location = record?.indexLocation as string;
const index = sourceIndex();
const model = embedder();
const fileIds: string[] = [];

async function load(total: number) {
  while (fileIds.length * PASSAGES_PER_FILE < total) {
    const number = fileIds.length;
    const fileId = `fil_${String(number).padStart(26, '0')}`;
    const documentId = `doc_${String(number).padStart(26, '0')}`;
    const passages = Array.from({ length: PASSAGES_PER_FILE }, (_, i) => {
      const sheet = sheetNumber();
      return {
        passageId: `reg_${number}_${i}#0`,
        sourceUri: `service://projects/${projectId}/regions/reg_${String(number).padStart(26, '0')}_${i}_0`,
        entityType: 'region' as const,
        sourceKind: 'region' as const,
        sourceId: `reg_${number}_${i}`,
        label: `${sheet} · DETAIL ${i % 12}`,
        documentId,
        fileId,
        fileName: `set-${number}.pdf`,
        pageNumber: 1 + (i % 50),
        pageEnd: 1 + (i % 50),
        box: { left: 10, top: 10, right: 200, bottom: 200 },
        sheetNumber: sheet,
        regionType: pick(['notes', 'schedule', 'view', 'legend']),
        drawingType: '',
        layoutType: 'drawing_sheet',
        classification: 'plans',
        head: `${sheet} ${sectionNumber()}`,
        text: sentence(),
        artifact: null,
      };
    });
    const prepared = await preparePassages(model, passages);
    await index.replaceFile(
      location,
      { embedder: model.id, dimension: model.dimension, analyzer: ANALYZER_VERSION },
      fileId,
      prepared,
    );
    await dynamo.send(
      new PutCommand({
        TableName: process.env.TABLE_NAME,
        Item: {
          ...keys.document(projectId, documentId),
          entity: 'document',
          documentId,
          fileId,
          jobId: 'job_bench',
        },
      }),
    );
    await searchIndexStates().setSearchIndexState(projectId, documentId, {
      status: 'indexed',
      sourceCount: PASSAGES_PER_FILE,
      passageCount: PASSAGES_PER_FILE,
      indexedAt: new Date().toISOString(),
      error: null,
    });
    fileIds.push(fileId);
  }
}

const queries = Array.from({ length: queryCount }, (_, i) =>
  i % 4 === 0
    ? sheetNumber()
    : i % 4 === 1
      ? `${pick(abbreviations)} ${pick(vocabulary)}`
      : `${pick(vocabulary)} ${pick(vocabulary)} ${pick(vocabulary)}`,
);

const rows: string[] = [];
for (const size of sizes) {
  const started = performance.now();
  await load(size);
  const loadSeconds = (performance.now() - started) / 1000;
  const passages = await index.size(location);
  // Every document is indexed, so the API searches without narrowing to files: the raw calls do the same.
  const filter = {};
  // Warm both paths (connections, caches), then interleave them query by query.
  for (const query of queries.slice(0, 10)) {
    await call(`/api/open/v1/projects/${projectId}/source-search`, 'POST', { query });
  }
  const raw: number[] = [];
  const viaApi: number[] = [];
  const floor: number[] = [];
  const lexicalOnly: number[] = [];
  const vectorOnly: number[] = [];
  for (const query of queries) {
    // The engine calls the API makes for this query, in process: the lexical query with its expansion,
    // the nearest neighbours of the query's embedding, and the ranking of the sources whose heading
    // carries a sheet or section number it writes (when it writes one). Each mode alone first.
    const { lexicalQuery, headIdentifiers } = lexicalQueries(query, config.SEARCH_EXPANSION_WEIGHT);
    let t = performance.now();
    await index.lexical(location, lexicalQuery, filter, 40);
    lexicalOnly.push(performance.now() - t);
    const [queryVector] = await model.embed([queryEmbeddingText(query)], 'query');
    t = performance.now();
    await index.nearest(location, queryVector as number[], filter, 40);
    vectorOnly.push(performance.now() - t);
    t = performance.now();
    await Promise.all([
      index.lexical(location, lexicalQuery, filter, 40),
      model
        .embed([queryEmbeddingText(query)], 'query')
        .then(([vector]) => index.nearest(location, vector as number[], filter, 40)),
      headIdentifiers.length > 0
        ? index.lexical(location, { ...lexicalQuery, inHead: headIdentifiers }, filter, 40)
        : Promise.resolve([]),
    ]);
    raw.push(performance.now() - t);
    t = performance.now();
    await call(`/api/open/v1/projects/${projectId}/source-search`, 'POST', { query, maxHits: 10 });
    viaApi.push(performance.now() - t);
    t = performance.now();
    await call(`/api/open/v1/projects/${projectId}`);
    floor.push(performance.now() - t);
  }
  const line =
    `${passages} passages (loaded in ${loadSeconds.toFixed(0)} s): raw engine p50 ${percentile(raw, 0.5).toFixed(1)} / p95 ${percentile(raw, 0.95).toFixed(1)} ms; ` +
    `API p50 ${percentile(viaApi, 0.5).toFixed(1)} / p95 ${percentile(viaApi, 0.95).toFixed(1)} ms; ` +
    `API/raw p95 ${(percentile(viaApi, 0.95) / percentile(raw, 0.95)).toFixed(2)}x (targets: API p95 <= 50 ms at 100k, <= 2x raw); ` +
    `lexical alone p50 ${percentile(lexicalOnly, 0.5).toFixed(1)} / p95 ${percentile(lexicalOnly, 0.95).toFixed(1)} ms, ` +
    `vector alone p50 ${percentile(vectorOnly, 0.5).toFixed(1)} / p95 ${percentile(vectorOnly, 0.95).toFixed(1)} ms; ` +
    `the API's floor (GET the project, same key) p50 ${percentile(floor, 0.5).toFixed(1)} / p95 ${percentile(floor, 0.95).toFixed(1)} ms`;
  console.log(line);
  rows.push(line);
}

await stack.stop();
rmSync(dataDir, { recursive: true, force: true });
process.exit(0);
