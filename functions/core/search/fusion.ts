/**
 * Reciprocal rank fusion of a search's rankings, one source per entry: a source at rank r of a ranking
 * (its rank is its best passage's) adds weight / (k + r). Each ranking has its own k and weight
 * (docs/decisions.md, Search: the lexical k is small so that a semantic rank 1 never overturns a
 * lexical rank 1). A source keeps the passage of the last lexical ranking that found it (the one that
 * shows the matched words), else its semantic passage, and the modes that found it.
 */
import type { IndexHit } from './ports.ts';

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
