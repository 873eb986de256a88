/**
 * bench/search-eval: ingests the labeled corpus through the local API (cached between runs), runs
 * the labeled queries in the three modes in the same run, and prints per query kind and overall
 * MRR@10, Recall@10 and top-1, for all queries and per set: `shared` (the corpus's
 * `labels/queries.json`) and `held-out` (this folder's `queries.json`, written on documents no search
 * rule was tuned on).
 *
 *   npm run bench:search-eval [-- --json FILE] [--fresh] [--verbose]
 *
 * Reads CORPUS_DIR (default ../shared/corpus, with labels/). A hit counts for a target when it is in
 * the target's file and its page range meets the target's pages. Recall@10 is the share of a query's
 * targets met by some hit of the top 10. Negative queries (no target) count as under the floor when
 * their hybrid top hit's `confidence` is under RELEVANCE_FLOOR (docs/decisions.md, Search); beside
 * them, how many queries answered right at rank 1 clear it (what the floor costs). `--json` writes
 * `{queries, overall, byKind, negatives: {total, belowFloor}, rightAtTop, sets: {shared, heldOut}}`.
 *
 * The ingested corpus is cached (bench/corpus-project.ts): rebuilt when the corpus files, the
 * analyzer, the embedder or the code of extraction, pipeline and search change. */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { RELEVANCE_FLOOR } from '../../functions/core/search/relevance.ts';
import { corpusDir } from '../args.ts';
import { corpusProject } from '../corpus-project.ts';
import { recordResult } from '../results.ts';
import { type LabelledQuery, labelledQueries, type Target } from './queries.ts';

const CORPUS = corpusDir;
const args = process.argv.slice(2);
const jsonOut = args.includes('--json') ? args[args.indexOf('--json') + 1] : undefined;
const verbose = args.includes('--verbose');
const MODES = ['lexical', 'semantic', 'hybrid'] as const;
const API_MODE = { lexical: 'exact', semantic: 'semantic', hybrid: 'hybrid' } as const;
type Mode = (typeof MODES)[number];

const queries = labelledQueries(CORPUS);
if (queries.length === 0) {
  console.log(`bench/search-eval: ${join(CORPUS, 'labels/queries.json')} not found; nothing to measure.`);
  process.exit(0);
}
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
  confidence: number;
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
interface Outcome extends Score {
  rank: number | null;
  /** The top hit's confidence (null: no hit). */
  topConfidence: number | null;
}
const perQuery: Record<Mode, Map<string, Outcome>> = {
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
    const firstRank = hits.findIndex((hit) => query.targets.some((target) => meets(hit, target)));
    const recalled = query.targets.filter((target) => hits.some((hit) => meets(hit, target))).length;
    perQuery[mode].set(query.id, {
      mrr10: firstRank >= 0 ? 1 / (firstRank + 1) : 0,
      recall10: query.targets.length > 0 ? recalled / query.targets.length : 0,
      top1: firstRank === 0 ? 1 : 0,
      rank: firstRank >= 0 ? firstRank + 1 : null,
      topConfidence: hits[0]?.confidence ?? null,
    });
    if (verbose && mode === 'hybrid')
      console.log(
        `  ${query.id} ${JSON.stringify(query.query)}: rank ${firstRank >= 0 ? firstRank + 1 : '-'}; top: ${hits[0]?.source.label} (${hits[0]?.location.fileName} p.${hits[0]?.location.pageNumber}, confidence ${hits[0]?.confidence})`,
      );
  }
}

const mean = (scores: Score[]): Score => ({
  mrr10: scores.reduce((sum, s) => sum + s.mrr10, 0) / Math.max(1, scores.length),
  recall10: scores.reduce((sum, s) => sum + s.recall10, 0) / Math.max(1, scores.length),
  top1: scores.reduce((sum, s) => sum + s.top1, 0) / Math.max(1, scores.length),
});
const above = (outcome: Outcome | undefined) => (outcome?.topConfidence ?? 0) >= RELEVANCE_FLOOR;

/** Figures of a set of queries: per mode overall and per kind, the negatives under the floor. */
function summary(subset: LabelledQuery[]) {
  const positive = subset.filter((query) => query.targets.length > 0);
  const negative = subset.filter((query) => query.targets.length === 0);
  const of = (mode: Mode, list: LabelledQuery[]) =>
    mean(list.map((query) => perQuery[mode].get(query.id) as Score));
  const hybridTop = positive.filter((query) => perQuery.hybrid.get(query.id)?.rank === 1);
  return {
    queries: positive.length,
    overall: Object.fromEntries(MODES.map((mode) => [mode, of(mode, positive)])) as Record<Mode, Score>,
    byKind: Object.fromEntries(
      [...new Set(positive.map((query) => query.kind))].map((kind) => [
        kind,
        Object.fromEntries(
          MODES.map((mode) => [
            mode,
            of(
              mode,
              positive.filter((query) => query.kind === kind),
            ),
          ]),
        ) as Record<Mode, Score>,
      ]),
    ),
    negatives: {
      total: negative.length,
      belowFloor: negative.filter((query) => !above(perQuery.hybrid.get(query.id))).length,
    },
    /** Queries whose hybrid rank-1 hit is a target, and how many of those clear the floor (what the floor costs). */
    rightAtTop: {
      total: hybridTop.length,
      aboveFloor: hybridTop.filter((query) => above(perQuery.hybrid.get(query.id))).length,
    },
  };
}
type Summary = ReturnType<typeof summary>;
const sets = {
  shared: summary(queries.filter((query) => query.set === 'shared')),
  heldOut: summary(queries.filter((query) => query.set === 'held-out')),
};
const result = { ...summary(queries), sets };

const f = (value: number) => value.toFixed(3);
const printTable = (name: string, figures: Summary) => {
  if (figures.queries === 0) return;
  console.log(`\n${name}: ${figures.queries} labeled queries with targets; MRR@10 / Recall@10 / top-1`);
  console.log('| kind | queries | lexical | semantic | hybrid |');
  console.log('|---|---|---|---|---|');
  for (const [kind, scores] of [...Object.entries(figures.byKind), ['overall', figures.overall] as const]) {
    const count =
      kind === 'overall'
        ? figures.queries
        : queries.filter((q) => q.kind === kind && q.targets.length > 0).length;
    const cells = MODES.map((mode) => {
      const s = (scores as Record<Mode, Score>)[mode];
      return `${f(s.mrr10)} / ${f(s.recall10)} / ${f(s.top1)}`;
    });
    console.log(`| ${kind} | ${name === 'all' ? count : '·'} | ${cells.join(' | ')} |`);
  }
  console.log(
    `negatives under the floor (confidence < ${RELEVANCE_FLOOR}): ${figures.negatives.belowFloor}/${figures.negatives.total}; ` +
      `right at rank 1 and above the floor: ${figures.rightAtTop.aboveFloor}/${figures.rightAtTop.total}`,
  );
};
printTable('all', result);
printTable('shared', sets.shared);
printTable('held-out', sets.heldOut);
for (const query of queries.filter((q) => q.targets.length === 0))
  console.log(
    `negative ${query.id} ${JSON.stringify(query.query)}: top hit's confidence ${MODES.map((mode) => `${mode} ${perQuery[mode].get(query.id)?.topConfidence ?? '-'}`).join(', ')}`,
  );
const positive = queries.filter((query) => query.targets.length > 0);
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
    measure: `${result.queries} labeled queries, ${mode}: MRR@10 / Recall@10 / top-1`,
    result: triple(result.overall[mode]),
    target: mode === 'hybrid' ? 'MRR@10 >= 0.85, >= each mode' : undefined,
  })),
  ...Object.entries(result.byKind).map(([kind, scores]) => ({
    measure: `${kind} queries, hybrid: MRR@10 / Recall@10 / top-1`,
    result: triple(scores.hybrid),
    target:
      kind === 'identifier'
        ? 'top-1 >= 0.98'
        : kind === 'abbreviation'
          ? 'MRR@10 >= 0.85'
          : kind === 'paraphrase'
            ? 'MRR@10 >= 0.5'
            : undefined,
  })),
  ...Object.entries(sets)
    .filter(([, figures]) => figures.queries > 0)
    .map(([name, figures]) => ({
      measure: `${name === 'shared' ? 'shared' : 'held-out'} queries (${figures.queries}), hybrid: MRR@10 / Recall@10 / top-1`,
      result: triple(figures.overall.hybrid),
    })),
  {
    measure: 'negative queries whose top hit is under the floor',
    result: `${result.negatives.belowFloor} / ${result.negatives.total}`,
    target: 'all',
  },
  {
    measure: 'queries right at rank 1 whose hit clears the floor',
    result: `${result.rightAtTop.aboveFloor} / ${result.rightAtTop.total}`,
  },
  {
    measure: `source-search latency over ${sorted.length} calls, p50 / p95`,
    result: `${sorted[Math.floor(sorted.length / 2)]?.toFixed(1)} / ${sorted[Math.floor(sorted.length * 0.95)]?.toFixed(1)} ms`,
  },
]);
await stack.stop();
process.exit(0);
