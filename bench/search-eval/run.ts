/**
 * bench/search-eval: ingests the labeled corpus through the local API (cached between runs), runs
 * the labeled queries of `labels/queries.json` in the three modes in the same run, and prints per
 * query kind and overall MRR@10, Recall@10 and top-1.
 *
 *   npm run bench:search-eval [-- --json FILE] [--fresh] [--verbose]
 *
 * Reads CORPUS_DIR (default ../shared/corpus, with labels/). A hit counts for a target when it is in
 * the target's file and its page range meets the target's pages. Recall@10 is the share of a query's
 * targets met by some hit of the top 10. Negative queries (no target) report whether their top hit
 * clears the relevance floor: retrieved by both the lexical and the semantic mode (docs/search.md).
 *
 * The cache (`bench/out/search-eval/`) keeps the local stack's data; it is rebuilt when the corpus
 * files, the analyzer, the embedder or the code of extraction, pipeline and search change.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname ?? '.', '../..');
const CORPUS = process.env.CORPUS_DIR ?? resolve(ROOT, '../shared/corpus');
const CACHE = join(ROOT, 'bench/out/search-eval');
const args = process.argv.slice(2);
const jsonOut = args.includes('--json') ? args[args.indexOf('--json') + 1] : undefined;
const verbose = args.includes('--verbose');
const MODES = ['lexical', 'semantic', 'hybrid'] as const;
const API_MODE = { lexical: 'exact', semantic: 'semantic', hybrid: 'hybrid' } as const;
type Mode = (typeof MODES)[number];

interface Target {
  file: string;
  pages: number[];
}
interface Query {
  id: string;
  query: string;
  kind: string;
  targets: Target[];
}

const labelsFile = join(CORPUS, 'labels/queries.json');
if (!existsSync(labelsFile)) {
  console.log(`bench/search-eval: ${labelsFile} not found; nothing to measure.`);
  process.exit(0);
}
const queries = (JSON.parse(readFileSync(labelsFile, 'utf8')) as { queries: Query[] }).queries;
const fileNames = [...new Set(queries.flatMap((query) => query.targets.map((target) => target.file)))].sort();
const missing = fileNames.filter((name) => !existsSync(join(CORPUS, name)));
if (missing.length > 0)
  throw new Error(`Corpus files named by the labels are missing: ${missing.join(', ')}`);

function fingerprint(): string {
  const hash = createHash('sha256');
  for (const name of fileNames) hash.update(`${name}:${readFileSync(join(CORPUS, name)).length}\n`);
  // What decides the index's contents (not the query-time code, which each run measures as it is).
  for (const folder of ['functions/core/extraction', 'functions/core/pipeline']) {
    for (const entry of readdirSync(join(ROOT, folder)).sort())
      hash.update(readFileSync(join(ROOT, folder, entry)));
  }
  for (const file of [
    'functions/core/search/analyzer.ts',
    'functions/core/search/construction-terms.json',
    'functions/core/search/sources.ts',
    'functions/core/search/index-file.ts',
    'functions/adapters/embeddings/word-vector-embedder.ts',
    'functions/adapters/index/lancedb-source-index.ts',
  ])
    hash.update(readFileSync(join(ROOT, file)));
  return hash.digest('hex').slice(0, 16);
}

const stateFile = join(CACHE, 'state.json');
const wanted = fingerprint();
let state: { fingerprint: string; orgId: string; projectId: string } | null = existsSync(stateFile)
  ? JSON.parse(readFileSync(stateFile, 'utf8'))
  : null;
if (args.includes('--fresh') || state?.fingerprint !== wanted) {
  rmSync(CACHE, { recursive: true, force: true });
  state = null;
}
mkdirSync(CACHE, { recursive: true });

process.env.POWERTOOLS_LOG_LEVEL ??= 'ERROR';
const { startLocalStack } = await import('../../local/stack.ts');
const { seedOrganization, issueCredentials } = await import('../../local/seed.ts');
const stack = await startLocalStack({ dataDir: join(CACHE, 'data'), persistDynamo: true, apiPort: 0 });
const orgId = state?.orgId ?? (await seedOrganization({ name: 'search-eval', credits: 100_000_000 }));
const { apiKey } = await issueCredentials({ orgId, label: 'search-eval' });

async function call(path: string, method = 'GET', body?: unknown) {
  const response = await fetch(`${stack.apiUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${apiKey}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const json = (await response.json()) as Record<string, any>;
  if (response.status >= 400)
    throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(json)}`);
  return json;
}

async function ingest(): Promise<string> {
  const project = await call('/api/open/v1/projects', 'POST', { name: `search-eval ${wanted}` });
  const projectId = project.project.id as string;
  while ((await call(`/api/open/v1/projects/${projectId}`)).project.status !== 'ready')
    await new Promise((r) => setTimeout(r, 100));
  const started = performance.now();
  for (const name of fileNames) {
    const bytes = readFileSync(join(CORPUS, name));
    const job = await call(`/api/open/v1/projects/${projectId}/jobs`, 'POST', { displayName: name });
    const jobId = job.job.id as string;
    const registered = await call(`/api/open/v1/jobs/${jobId}/uploads`, 'POST', {
      files: [
        {
          fileName: name.split('/').pop(),
          contentType: 'application/pdf',
          fileSize: bytes.length,
          sha256: createHash('sha256').update(bytes).digest('hex'),
        },
      ],
    });
    const upload = registered.uploads[0];
    const complete: Record<string, unknown> = { directUploads: [], multipartUploads: [] };
    if (upload.uploadMode === 'direct_put') {
      const put = await fetch(upload.uploadUrl, {
        method: 'PUT',
        headers: upload.uploadHeaders,
        body: bytes,
      });
      if (put.status !== 200) throw new Error(`upload failed: ${put.status}`);
      complete.directUploads = [{ documentId: upload.documentId, uploadToken: upload.uploadToken }];
    } else {
      const parts = [];
      for (const part of upload.parts) {
        const put = await fetch(part.uploadUrl, {
          method: 'PUT',
          headers: part.uploadHeaders,
          body: bytes.subarray(part.startByte, part.endByteExclusive),
        });
        parts.push({ partNumber: part.partNumber, etag: put.headers.get('etag') });
      }
      complete.multipartUploads = [
        {
          documentId: upload.documentId,
          multipartUploadId: upload.multipartUploadId,
          uploadToken: upload.uploadToken,
          parts,
        },
      ];
    }
    await call(`/api/open/v1/jobs/${jobId}/uploads/complete`, 'POST', complete);
    const fileStarted = performance.now();
    let current = (await call(`/api/open/v1/jobs/${jobId}`)).job;
    while (current.status !== 'completed' && current.status !== 'failed') {
      await new Promise((r) => setTimeout(r, 500));
      current = (await call(`/api/open/v1/jobs/${jobId}`)).job;
    }
    console.log(
      `ingested ${name}: ${current.status}, ${current.pageCount} pages in ${((performance.now() - fileStarted) / 1000).toFixed(1)} s`,
    );
  }
  console.log(`corpus ingested in ${((performance.now() - started) / 1000).toFixed(0)} s`);
  return projectId;
}

const projectId = state?.projectId ?? (await ingest());
writeFileSync(stateFile, JSON.stringify({ fingerprint: wanted, orgId, projectId }));
const documents = (await call(`/api/open/v1/projects/${projectId}/documents?limit=500`)).documents as {
  fileName: string;
  searchIndex: { status: string; sourceCount: number; passageCount: number };
}[];
for (const document of documents)
  console.log(
    `  ${document.fileName}: index ${document.searchIndex.status}, ${document.searchIndex.sourceCount} sources, ${document.searchIndex.passageCount} passages`,
  );

interface Hit {
  location: { fileName: string; pageNumber: number; pageEnd: number };
  matchedModes: string[];
  source: { label: string };
}
const baseName = (name: string) => name.split('/').pop() as string;
const meets = (hit: Hit, target: Target) =>
  hit.location.fileName === baseName(target.file) &&
  target.pages.some((page) => page >= hit.location.pageNumber && page <= hit.location.pageEnd);

interface Score {
  mrr10: number;
  recall10: number;
  top1: number;
}
const perQuery: Record<Mode, Map<string, Score & { rank: number | null; floor?: boolean }>> = {
  lexical: new Map(),
  semantic: new Map(),
  hybrid: new Map(),
};
const latencies: number[] = [];
for (const query of queries) {
  for (const mode of MODES) {
    const started = performance.now();
    const reply = await call(`/api/open/v1/projects/${projectId}/source-search`, 'POST', {
      query: query.query,
      mode: API_MODE[mode],
      maxHits: 10,
    });
    latencies.push(performance.now() - started);
    const hits = reply.hits as Hit[];
    if (query.targets.length === 0) {
      const top = hits[0];
      perQuery[mode].set(query.id, {
        mrr10: 0,
        recall10: 0,
        top1: 0,
        rank: null,
        floor: Boolean(top && top.matchedModes.length === 2),
      });
      continue;
    }
    const firstRank = hits.findIndex((hit) => query.targets.some((target) => meets(hit, target)));
    const recalled = query.targets.filter((target) => hits.some((hit) => meets(hit, target))).length;
    perQuery[mode].set(query.id, {
      mrr10: firstRank >= 0 ? 1 / (firstRank + 1) : 0,
      recall10: recalled / query.targets.length,
      top1: firstRank === 0 ? 1 : 0,
      rank: firstRank >= 0 ? firstRank + 1 : null,
    });
    if (verbose && mode === 'hybrid')
      console.log(
        `  ${query.id} ${JSON.stringify(query.query)}: rank ${firstRank >= 0 ? firstRank + 1 : '-'}; top: ${hits[0]?.source.label} (${hits[0]?.location.fileName} p.${hits[0]?.location.pageNumber})`,
      );
  }
}

const mean = (scores: Score[]): Score => ({
  mrr10: scores.reduce((sum, s) => sum + s.mrr10, 0) / Math.max(1, scores.length),
  recall10: scores.reduce((sum, s) => sum + s.recall10, 0) / Math.max(1, scores.length),
  top1: scores.reduce((sum, s) => sum + s.top1, 0) / Math.max(1, scores.length),
});
const positive = queries.filter((query) => query.targets.length > 0);
const kinds = [...new Set(positive.map((query) => query.kind))];
const result = {
  overall: Object.fromEntries(
    MODES.map((mode) => [mode, mean(positive.map((query) => perQuery[mode].get(query.id) as Score))]),
  ),
  byKind: Object.fromEntries(
    kinds.map((kind) => [
      kind,
      Object.fromEntries(
        MODES.map((mode) => [
          mode,
          mean(
            positive
              .filter((query) => query.kind === kind)
              .map((query) => perQuery[mode].get(query.id) as Score),
          ),
        ]),
      ),
    ]),
  ),
};

const f = (value: number) => value.toFixed(3);
console.log(`\n${positive.length} labeled queries with targets (${CORPUS}); MRR@10 / Recall@10 / top-1`);
console.log('| kind | queries | lexical | semantic | hybrid |');
console.log('|---|---|---|---|---|');
for (const [kind, scores] of [...Object.entries(result.byKind), ['overall', result.overall] as const]) {
  const count = kind === 'overall' ? positive.length : positive.filter((query) => query.kind === kind).length;
  const cells = MODES.map((mode) => {
    const s = (scores as Record<Mode, Score>)[mode];
    return `${f(s.mrr10)} / ${f(s.recall10)} / ${f(s.top1)}`;
  });
  console.log(`| ${kind} | ${count} | ${cells.join(' | ')} |`);
}
const negatives = queries.filter((query) => query.targets.length === 0);
for (const query of negatives)
  console.log(
    `negative ${query.id} ${JSON.stringify(query.query)}: top hit clears the floor? ${MODES.map((mode) => `${mode} ${perQuery[mode].get(query.id)?.floor ? 'yes' : 'no'}`).join(', ')}`,
  );
for (const mode of MODES) {
  const misses = positive
    .filter((query) => (perQuery[mode].get(query.id)?.rank ?? 99) > 1)
    .map((query) => `${query.id}:${perQuery[mode].get(query.id)?.rank ?? '-'}`);
  console.log(`${mode} not at rank 1: ${misses.join(' ')}`);
}
const sorted = [...latencies].sort((a, b) => a - b);
console.log(
  `source-search latency over ${sorted.length} calls: p50 ${sorted[Math.floor(sorted.length / 2)]?.toFixed(1)} ms, p95 ${sorted[Math.floor(sorted.length * 0.95)]?.toFixed(1)} ms`,
);
if (jsonOut) writeFileSync(jsonOut, `${JSON.stringify(result, null, 2)}\n`);
await stack.stop();
process.exit(0);
