/**
 * Pseudo-relevance feedback on the lexical side: the words the query's best passages share, searched
 * beside the query. A question in plain words ("how soon can buses run over a new slab") finds a
 * few passages by its own words; the trade words those passages share ("compressive strength", "psi")
 * find the rest.
 *
 * Of the top `PASSAGES` passages (one per source), the stems of four letters or more that are not the
 * query's and stand in at least `MIN_SHARE` of them, most shared first, at most `count`.
 */
import { analyzeText } from './analyzer.ts';
import type { IndexHit } from './ports.ts';

const PASSAGES = 5;
const MIN_SHARE = 3;

export function feedbackTerms(hits: IndexHit[], queryTerms: readonly string[], count: number): string[] {
  if (count <= 0) return [];
  const own = new Set(queryTerms);
  const seen = new Set<string>();
  const shares = new Map<string, number>();
  for (const hit of hits) {
    if (seen.size >= PASSAGES) break;
    if (seen.has(hit.passage.sourceUri)) continue;
    seen.add(hit.passage.sourceUri);
    const stems = new Set(
      analyzeText(`${hit.passage.head}\n${hit.passage.text}`)
        .split(' ')
        .filter((token) => /^[a-z]{4,}$/.test(token) && !own.has(token)),
    );
    for (const stem of stems) shares.set(stem, (shares.get(stem) ?? 0) + 1);
  }
  if (seen.size < PASSAGES) return [];
  return [...shares.entries()]
    .filter(([, share]) => share >= MIN_SHARE)
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .slice(0, count)
    .map(([stem]) => stem);
}
