/**
 * bench/search-eval/calibrate: fits the confidence model of `functions/core/search/relevance.ts` on the
 * labelled queries' hits, and judges it on the set it was not fitted on.
 *
 *   npm run bench:search-calibrate [-- --json FILE]
 *
 * Runs every labelled query (bench/search-eval/queries.ts: the corpus's and the held-out set) through
 * `searchSources` in process on the ingested corpus project (bench/corpus-project.ts, the same cache
 * as bench:search-eval), in `hybrid` and `exact` mode, and reads each top-10 hit's evidence the way
 * the search computes it: its coverage of the query, and (to judge whether they would add anything)
 * its semantic similarity and whether both modes found it. A hit is positive when it meets a target
 * of its query. Logistic regressions (gradient descent, small L2) on coverage alone and on all three
 * are fitted per mode: on the shared set alone, judged on the held-out set; on the held-out set,
 * judged on the shared one; and on both, the model to keep. Printed per fit and set: negative queries
 * whose top hit is under the floor, and queries answered right at rank 1 whose hit clears it.
 */
import { writeFileSync } from 'node:fs';
import { corpusDir, flagValue } from '../args.ts';
import { corpusProject } from '../corpus-project.ts';
import { type LabelledQuery, labelledQueries } from './queries.ts';

const queries = labelledQueries(corpusDir);
/** `--weighted`: the coverage weighs the query's words by their specificity (relevance.unitWeights). */
const weighted = process.argv.includes('--weighted');
if (queries.length === 0) {
  console.log('bench/search-eval/calibrate: no labelled queries; nothing to fit.');
  process.exit(0);
}
const { stack, projectId, orgId } = await corpusProject({
  corpus: corpusDir,
  fresh: false,
  orgName: 'search-eval',
});
const { searchWiring } = await import('../../functions/shared/wiring/search.ts');
const { searchSources } = await import('../../functions/core/search/search-sources.ts');
const relevance = await import('../../functions/core/search/relevance.ts');
const { definedExpansions, definedTerms } = await import('../../functions/core/search/defined-terms.ts');
type IndexHit = import('../../functions/core/search/ports.ts').IndexHit;

// The index calls of one search, recorded to read the passages and similarities behind its hits.
const deps = searchWiring();
let lexicalCalls: IndexHit[][] = [];
let nearestCalls: IndexHit[][] = [];
const recording = {
  ...deps,
  index: {
    ...deps.index,
    lexical: async (...args: Parameters<typeof deps.index.lexical>) => {
      const hits = await deps.index.lexical(...args);
      lexicalCalls.push(hits);
      return hits;
    },
    nearest: async (...args: Parameters<typeof deps.index.nearest>) => {
      const hits = await deps.index.nearest(...args);
      nearestCalls.push(hits);
      return hits;
    },
  },
} as typeof deps;

interface Sample {
  query: LabelledQuery;
  rank: number;
  positive: boolean;
  coverage: number;
  similarity: number | null;
  agreement: boolean;
}
const baseName = (name: string) => name.split('/').pop() as string;
const samples: Record<'hybrid' | 'exact', Sample[]> = { hybrid: [], exact: [] };
for (const query of queries) {
  for (const mode of ['hybrid', 'exact'] as const) {
    lexicalCalls = [];
    nearestCalls = [];
    const result = await searchSources(recording, {
      orgId,
      projectId,
      search: { query: query.query, mode, maxHits: 10 },
    });
    const semantic = nearestCalls[0] ?? [];
    const defined = definedExpansions(
      query.query,
      (lexicalCalls[0] ?? []).flatMap((hit) => definedTerms(hit.passage.text)),
    );
    const units = relevance.queryUnits(query.query, defined.forms);
    if (mode === 'hybrid' && defined.forms.length > 0)
      console.log(
        `  ${query.id}: the project defines ${defined.forms.map((form) => `${form.written} = ${form.other}`).join('; ')}`,
      );
    const weights = relevance.unitWeights(
      units,
      (lexicalCalls[0] ?? []).map((hit) => `${hit.passage.head}\n${hit.passage.text}`),
    );
    const floor = semantic.length > 0 ? Math.min(...semantic.map((hit) => hit.score)) : null;
    for (const [rank, hit] of result.hits.entries()) {
      const uri = hit.sourceCatalogUri;
      const passage =
        lexicalCalls.flat().find((found) => found.passage.sourceUri === uri)?.passage ??
        semantic.find((found) => found.passage.sourceUri === uri)?.passage;
      if (!passage) continue;
      samples[mode].push({
        query,
        rank: rank + 1,
        positive: query.targets.some(
          (target) =>
            baseName(target.file) === hit.location.fileName &&
            target.pages.some((page) => page >= hit.location.pageNumber && page <= hit.location.pageEnd),
        ),
        coverage: relevance.coverageOf(
          units,
          relevance.passageTokens(passage.head, passage.text),
          relevance.fileNameTokens(passage.fileName),
          ...(weighted ? [weights] : []),
        ),
        similarity:
          mode === 'exact'
            ? null
            : (semantic.find((found) => found.passage.sourceUri === uri)?.score ?? floor),
        agreement: hit.matchedModes.length === 2,
      });
    }
  }
}

let withAll = false;
const featuresOf = (sample: Sample): number[] =>
  withAll && sample.similarity !== null
    ? [1, sample.coverage, sample.similarity, sample.agreement ? 1 : 0]
    : [1, sample.coverage];

/** Logistic regression by gradient descent (L2 on the weights, not the bias). */
function fitLogistic(data: Sample[]): number[] {
  const width = featuresOf(data[0] as Sample).length;
  const weights = new Array<number>(width).fill(0);
  const positives = data.filter((sample) => sample.positive).length;
  // Classes weighed alike: a query has one or two right hits among ten.
  const weightOf = (sample: Sample) =>
    sample.positive ? data.length / (2 * positives) : data.length / (2 * (data.length - positives));
  for (let step = 0; step < 20_000; step++) {
    const gradient = new Array<number>(width).fill(0);
    for (const sample of data) {
      const x = featuresOf(sample);
      const z = x.reduce((sum, value, index) => sum + value * (weights[index] as number), 0);
      const error = (1 / (1 + Math.exp(-z)) - (sample.positive ? 1 : 0)) * weightOf(sample);
      for (let index = 0; index < width; index++)
        gradient[index] = (gradient[index] as number) + error * (x[index] as number);
    }
    for (let index = 0; index < width; index++)
      weights[index] =
        (weights[index] as number) -
        0.5 *
          ((gradient[index] as number) / data.length + (index === 0 ? 0 : 1e-3 * (weights[index] as number)));
  }
  return weights.map((weight) => Math.round(weight * 100) / 100);
}

const confidence = (weights: number[], sample: Sample) => {
  const z = featuresOf(sample).reduce((sum, value, index) => sum + value * (weights[index] as number), 0);
  return 1 / (1 + Math.exp(-z));
};

/** Negatives under the floor and right answers at rank 1 above it, in one set of queries. */
function judge(weights: number[], data: Sample[]) {
  const tops = data.filter((sample) => sample.rank === 1);
  const negatives = tops.filter((sample) => sample.query.targets.length === 0);
  const right = tops.filter((sample) => sample.positive);
  const floor = relevance.RELEVANCE_FLOOR;
  return {
    negativesBelowFloor: `${negatives.filter((sample) => confidence(weights, sample) < floor).length}/${negatives.length}`,
    rightAtTopAboveFloor: `${right.filter((sample) => confidence(weights, sample) >= floor).length}/${right.length}`,
  };
}

const report: Record<string, unknown> = {};
for (const [mode, all] of [
  ['hybrid', false],
  ['hybrid', true],
  ['exact', false],
] as const) {
  withAll = all;
  const name = `${mode}: ${all ? '[bias, coverage, similarity, agreement]' : '[bias, coverage]'}`;
  const shared = samples[mode].filter((sample) => sample.query.set === 'shared');
  const heldOut = samples[mode].filter((sample) => sample.query.set === 'held-out');
  const fits = {
    'fitted on shared': fitLogistic(shared),
    'fitted on held-out': heldOut.length > 0 ? fitLogistic(heldOut) : null,
    'fitted on both': fitLogistic(samples[mode]),
  };
  report[name] = Object.fromEntries(
    Object.entries(fits)
      .filter((entry): entry is [string, number[]] => entry[1] !== null)
      .map(([fit, weights]) => [
        fit,
        { weights, shared: judge(weights, shared), heldOut: judge(weights, heldOut) },
      ]),
  );
  console.log(`\n${name}`);
  for (const [fit, figures] of Object.entries(report[name] as Record<string, object>))
    console.log(`  ${fit}: ${JSON.stringify(figures)}`);
}
withAll = false;
for (const sample of samples.hybrid.filter((s) => s.rank === 1))
  console.log(
    `  ${sample.query.id} ${sample.positive ? 'right' : sample.query.targets.length === 0 ? 'NEG  ' : 'wrong'} coverage ${sample.coverage.toFixed(2)} similarity ${sample.similarity?.toFixed(3)} agreement ${sample.agreement} confidence now ${relevance.confidenceOf(sample.coverage)}`,
  );
const jsonOut = flagValue('--json');
if (jsonOut) writeFileSync(jsonOut, `${JSON.stringify(report, null, 2)}\n`);
await stack.stop();
process.exit(0);
