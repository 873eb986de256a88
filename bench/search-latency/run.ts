/**
 * bench/search-latency: loads synthetic passages into one project's index (10k, then 100k) and
 * reports p50/p95 of `POST source-search` (hybrid, through the local API) beside the raw engine calls
 * (the same lexical, vector and heading-number queries the API makes, on the LanceDB adapter, in
 * process) in the same run, and the
 * API's floor: an authenticated GET of the project (key check, rate limit, one read) between them, and
 * the DynamoDB and S3 calls each API search makes (counted on the SDK clients the functions share).
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
import { type BenchFigure, recordResult } from '../results.ts';
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
const { projectStore } = await import('../../functions/shared/wiring/adapters.ts');
const { sourceIndex, embedder } = await import('../../functions/shared/wiring/search.ts');
const { lexicalQueries } = await import('../../functions/core/search/search-sources.ts');
const { queryEmbeddingText } = await import('../../functions/core/search/query-expansion.ts');
const { config } = await import('../../functions/shared/config.ts');
const { indexSyntheticFile, syntheticQueries } = await import('../synthetic-index.ts');
const clients = await import('../../functions/shared/clients.ts');

/** SDK calls by service while `counting` is on: the API searches' own (the bench's reads are off). */
const calls = { dynamodb: 0, s3: 0 };
let counting = false;
const countOn = (service: keyof typeof calls) => ({
  step: 'initialize' as const,
  name: `benchCount-${service}`,
});
clients.dynamo.middlewareStack.add(
  (next) => async (args) => {
    if (counting) calls.dynamodb++;
    return next(args);
  },
  countOn('dynamodb'),
);
clients.s3.middlewareStack.add(
  (next) => async (args) => {
    if (counting) calls.s3++;
    return next(args);
  },
  countOn('s3'),
);

const projectId = await createReadyProject(call, 'Latency');
const record = await projectStore().get(orgId, projectId);
const location = record?.indexLocation as string;
const index = sourceIndex();
const model = embedder();
let files = 0;

async function load(total: number) {
  while (files * PASSAGES_PER_FILE < total)
    await indexSyntheticFile({ projectId, location, fileNumber: files++, passages: PASSAGES_PER_FILE });
}

const queries = syntheticQueries(queryCount);

const rows: BenchFigure[] = [];
const quantiles = (values: number[]) =>
  values.length > 0
    ? `p50 ${percentile(values, 0.5).toFixed(1)} / p95 ${percentile(values, 0.95).toFixed(1)} ms`
    : 'none';
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
  calls.dynamodb = 0;
  calls.s3 = 0;
  const raw: number[] = [];
  const viaApi: number[] = [];
  const floor: number[] = [];
  const lexicalOnly: number[] = [];
  const expandedWith: number[] = [];
  const expandedWithout: number[] = [];
  const vectorOnly: number[] = [];
  for (const query of queries) {
    // The engine calls the API makes for this query, in process: the lexical query with its expansion,
    // the nearest neighbours of the query's embedding, and the ranking of the sources whose heading
    // carries a sheet or section number it writes (when it writes one). Each mode alone first.
    const { lexicalQuery, headIdentifiers, expansionTerms } = lexicalQueries(
      query,
      config.SEARCH_EXPANSION_WEIGHT,
      config.SEARCH_PROXIMITY_PAIRS,
    );
    let t = performance.now();
    await index.lexical(location, lexicalQuery, filter, 40);
    lexicalOnly.push(performance.now() - t);
    if (lexicalQuery.expansion?.length) {
      // What the expansion clause costs: the same query with and without it.
      expandedWith.push(lexicalOnly[lexicalOnly.length - 1] as number);
      t = performance.now();
      await index.lexical(location, { terms: lexicalQuery.terms, phrases: lexicalQuery.phrases }, filter, 40);
      expandedWithout.push(performance.now() - t);
    }
    const embeddingText = queryEmbeddingText(query, expansionTerms);
    const [queryVector] = await model.embed([embeddingText], 'query');
    t = performance.now();
    await index.nearest(location, queryVector as number[], filter, 40);
    vectorOnly.push(performance.now() - t);
    t = performance.now();
    await Promise.all([
      index.lexical(location, lexicalQuery, filter, 40),
      model
        .embed([embeddingText], 'query')
        .then(([vector]) => index.nearest(location, vector as number[], filter, 40)),
      headIdentifiers.length > 0
        ? index.lexical(location, { ...lexicalQuery, inHead: headIdentifiers }, filter, 40)
        : Promise.resolve([]),
    ]);
    raw.push(performance.now() - t);
    t = performance.now();
    counting = true;
    await call(`/api/open/v1/projects/${projectId}/source-search`, 'POST', { query, maxHits: 10 });
    counting = false;
    viaApi.push(performance.now() - t);
    t = performance.now();
    await call(`/api/open/v1/projects/${projectId}`);
    floor.push(performance.now() - t);
  }
  const line =
    `${passages} passages (loaded in ${loadSeconds.toFixed(0)} s): raw engine p50 ${percentile(raw, 0.5).toFixed(1)} / p95 ${percentile(raw, 0.95).toFixed(1)} ms; ` +
    `API p50 ${percentile(viaApi, 0.5).toFixed(1)} / p95 ${percentile(viaApi, 0.95).toFixed(1)} ms; ` +
    `API/raw p95 ${(percentile(viaApi, 0.95) / percentile(raw, 0.95)).toFixed(2)}x (targets: API p95 <= 20 ms at 100k, <= 1.5x raw); ` +
    `per API search ${(calls.dynamodb / queries.length).toFixed(2)} DynamoDB and ${(calls.s3 / queries.length).toFixed(2)} S3 calls; ` +
    `lexical alone p50 ${percentile(lexicalOnly, 0.5).toFixed(1)} / p95 ${percentile(lexicalOnly, 0.95).toFixed(1)} ms, ` +
    `vector alone p50 ${percentile(vectorOnly, 0.5).toFixed(1)} / p95 ${percentile(vectorOnly, 0.95).toFixed(1)} ms; ` +
    `the ${expandedWith.length} queries with an expansion, lexical with its clause ${quantiles(expandedWith)}, without it ${quantiles(expandedWithout)}; ` +
    `the API's floor (GET the project, same key) p50 ${percentile(floor, 0.5).toFixed(1)} / p95 ${percentile(floor, 0.95).toFixed(1)} ms`;
  console.log(line);
  rows.push({ measure: `${passages} passages`, result: line.slice(line.indexOf(': ') + 2) });
}

recordResult('search-latency', rows);
await stack.stop();
rmSync(dataDir, { recursive: true, force: true });
process.exit(0);
