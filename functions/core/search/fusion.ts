/**
 * Reciprocal rank fusion of a search's rankings, one source per entry: a source at rank r of a ranking
 * (its rank is its best passage's) adds weight / (k + r). Each ranking has its own k and weight
 * (docs/decisions.md, Search: the lexical k is small so that a semantic rank 1 never overturns a
 * lexical rank 1). A source keeps the passage of the last lexical ranking that found it (the one that
 * shows the matched words), else its semantic passage, and the modes that found it.
 */
import type { IndexHit, Reranker } from './ports.ts';

export type Mode = 'exact' | 'semantic';

export interface Ranking {
  hits: IndexHit[];
  mode: Mode;
  k: number;
  weight: number;
}

export interface FusedSource {
  hit: IndexHit;
  score: number;
  modes: Set<Mode>;
}

/** The sources of the rankings, best first (ties by source URI, so the order is stable). */
export function fuseRankings(rankings: Ranking[]): FusedSource[] {
  const fused = new Map<string, FusedSource>();
  for (const { hits, mode, k, weight } of rankings) {
    const seen = new Set<string>();
    for (const hit of hits) {
      const uri = hit.passage.sourceUri;
      if (seen.has(uri)) continue;
      seen.add(uri);
      const contribution = weight / (k + seen.size);
      const entry = fused.get(uri);
      if (!entry) fused.set(uri, { hit, score: contribution, modes: new Set([mode]) });
      else {
        entry.score += contribution;
        entry.modes.add(mode);
        if (mode === 'exact') entry.hit = hit;
      }
    }
  }
  return [...fused.values()].sort(
    (a, b) => b.score - a.score || a.hit.passage.sourceUri.localeCompare(b.hit.passage.sourceUri),
  );
}

/**
 * The fused sources with their first `depth` reordered by a reranker (each by its best passage, heading
 * and text); the rest keep their place after them. When the reranker fails (throttled, not served in
 * the Region), the fused order stands and `failed` says so: a search never fails for its rerank stage.
 */
export async function rerankFused(
  fused: FusedSource[],
  reranker: Reranker,
  query: string,
  depth: number,
): Promise<{ sources: FusedSource[]; failed: Error | null }> {
  const head = fused.slice(0, depth);
  if (head.length < 2) return { sources: fused, failed: null };
  try {
    const scores = await reranker.rerank(
      query,
      head.map(({ hit }) => `${hit.passage.head}\n${hit.passage.text}`),
    );
    const scoreOf = new Map(scores.map(({ index, score }) => [index, score]));
    const reordered = head
      .map((source, index) => ({ source, index, score: scoreOf.get(index) ?? Number.NEGATIVE_INFINITY }))
      .sort((a, b) => b.score - a.score || a.index - b.index)
      .map(({ source }) => source);
    return { sources: [...reordered, ...fused.slice(depth)], failed: null };
  } catch (error) {
    return { sources: fused, failed: error as Error };
  }
}

/**
 * The fused sources with the first `depth` reweighed by how much of the query their passage covers:
 * score x (1 + weight x coverage), `coverage` from 0 to 1 (`relevance.ts coverageOf`: the query's
 * words, each as specific as it is rare among the passages found). Reciprocal rank fusion knows ranks
 * only, and BM25 lets a passage that repeats the query's common words (`dowel bar` through a
 * specification section) outrank a shorter one that holds its rare words too (the product name a
 * detail's note prints); the rest keep their place after them.
 */
export function reweighByCoverage(
  fused: FusedSource[],
  coverage: (source: FusedSource) => number,
  weight: number,
  depth: number,
): FusedSource[] {
  if (weight <= 0) return fused;
  const head = fused
    .slice(0, depth)
    .map((source) => ({ ...source, score: source.score * (1 + weight * coverage(source)) }))
    .sort((a, b) => b.score - a.score || a.hit.passage.sourceUri.localeCompare(b.hit.passage.sourceUri));
  return [...head, ...fused.slice(depth)];
}
