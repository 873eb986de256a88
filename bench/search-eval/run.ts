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
 * clears the relevance floor: retrieved by both the lexical and the semantic mode (docs/decisions.md, Search).
 *
 * The ingested corpus is cached (bench/corpus-project.ts): rebuilt when the corpus files, the
 * analyzer, the embedder or the code of extraction, pipeline and search change.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { corpusDir } from '../args.ts';
import { corpusProject } from '../corpus-project.ts';
import { recordResult } from '../results.ts';

const CORPUS = corpusDir;
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
const { stack, call, projectId } = await corpusProject({
  corpus: CORPUS,
  fresh: args.includes('--fresh'),
  orgName: 'search-eval',
});
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
const triple = (s: Score | undefined) => (s ? `${f(s.mrr10)} / ${f(s.recall10)} / ${f(s.top1)}` : '–');
recordResult('search-eval', [
  ...MODES.map((mode) => ({
    measure: `${positive.length} labeled queries, ${mode}: MRR@10 / Recall@10 / top-1`,
    result: triple(result.overall[mode]),
    target: mode === 'hybrid' ? 'MRR@10 >= 0.85, >= each mode' : undefined,
  })),
  ...Object.entries(result.byKind).map(([kind, scores]) => ({
    measure: `${kind} queries, hybrid: MRR@10 / Recall@10 / top-1`,
    result: triple(scores.hybrid),
    target: kind === 'identifier' ? 'top-1 >= 0.98' : undefined,
  })),
  {
    measure: `source-search latency over ${sorted.length} calls, p50 / p95`,
    result: `${sorted[Math.floor(sorted.length / 2)]?.toFixed(1)} / ${sorted[Math.floor(sorted.length * 0.95)]?.toFixed(1)} ms`,
  },
]);
await stack.stop();
process.exit(0);
