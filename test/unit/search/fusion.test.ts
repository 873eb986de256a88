import { describe, expect, it } from 'vitest';
import { fuseRankings, reweighByCoverage } from '../../../functions/core/search/fusion.ts';
import type { IndexHit } from '../../../functions/core/search/ports.ts';

const hit = (sourceUri: string, passageId = sourceUri): IndexHit =>
  ({ score: 1, passage: { sourceUri, passageId, head: '', text: '' } }) as unknown as IndexHit;

describe('reciprocal rank fusion', () => {
  it('adds weight / (k + rank) per ranking, a source ranked by its best passage', () => {
    // Prepare: the lexical ranking (k 5) puts a first; the semantic one (k 60) puts b first, a second.
    const lexical = [hit('a', 'a1'), hit('a', 'a2'), hit('b')];
    const semantic = [hit('b'), hit('a', 'a3')];

    // Act
    const fused = fuseRankings([
      { hits: lexical, mode: 'exact', k: 5, weight: 1 },
      { hits: semantic, mode: 'semantic', k: 60, weight: 1 },
    ]);

    // Assess: a = 1/6 + 1/62, b = 1/7 + 1/61; a's passage is the lexical one; both modes found both.
    expect(fused.map((source) => source.hit.passage.sourceUri)).toEqual(['a', 'b']);
    expect(fused[0]?.score).toBeCloseTo(1 / 6 + 1 / 62, 10);
    expect(fused[1]?.score).toBeCloseTo(1 / 7 + 1 / 61, 10);
    expect(fused[0]?.hit.passage.passageId).toBe('a1');
    expect([...(fused[1]?.modes ?? [])].sort()).toEqual(['exact', 'semantic']);
  });

  it('orders equal scores by source, so the same rankings give the same order', () => {
    const fused = fuseRankings([
      { hits: [hit('b')], mode: 'exact', k: 5, weight: 1 },
      { hits: [hit('a')], mode: 'exact', k: 5, weight: 1 },
    ]);

    expect(fused.map((source) => source.hit.passage.sourceUri)).toEqual(['a', 'b']);
  });

  it('raises a source that covers the query above one ranked first for its common words', () => {
    // Prepare: a specification section first by BM25 (the query's common words, many times), a detail
    // note third that also holds its rare words; d beyond the reweighed depth.
    const fused = fuseRankings([
      { hits: [hit('spec'), hit('other'), hit('note'), hit('d')], mode: 'exact', k: 5, weight: 1 },
    ]);
    const coverage: Record<string, number> = { spec: 0.3, other: 0.2, note: 1, d: 1 };

    // Act
    const reweighed = reweighByCoverage(fused, (source) => coverage[source.hit.passage.sourceUri] ?? 0, 2, 3);
    const off = reweighByCoverage(fused, () => 1, 0, 3);

    // Assess: note = 1/8 x 3 > spec = 1/6 x 1.6 > other = 1/7 x 1.4; d keeps its place after them.
    expect(reweighed.map((source) => source.hit.passage.sourceUri)).toEqual(['note', 'spec', 'other', 'd']);
    expect(reweighed[0]?.score).toBeCloseTo((1 / 8) * 3, 10);
    expect(reweighed[3]?.score).toBeCloseTo(1 / 9, 10);
    expect(off).toBe(fused);
  });
});
