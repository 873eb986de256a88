import { describe, expect, it } from 'vitest';
import { nextBatch, splitShares } from '../../../functions/engine/io/workers.ts';
import { defined } from '../../defined.ts';

describe('page shares of the worker pool', () => {
  it('hands out every page exactly once, whatever order the workers ask in', () => {
    for (const [from, to, workers, size] of [
      [1, 775, 2, 16],
      [5, 9, 3, 4],
      [1, 1, 2, 16],
      [10, 200, 4, 7],
    ] as const) {
      const shares = splitShares(from, to, workers);
      const seen: number[] = [];
      // Worker 0 asks three times as often as the others, as if its pages were cheaper.
      const order = [0, 0, 0, ...Array.from({ length: workers - 1 }, (_, i) => i + 1)];
      for (let step = 0; ; step++) {
        const batch = nextBatch(shares, defined(order[step % order.length], 'a worker to ask'), size);
        if (!batch) {
          if (shares.every((s) => s.next > s.end)) break;
          continue;
        }
        expect(batch[1] - batch[0] + 1).toBeLessThanOrEqual(size);
        for (let p = batch[0]; p <= batch[1]; p++) seen.push(p);
      }
      expect(seen.sort((a, b) => a - b)).toEqual(Array.from({ length: to - from + 1 }, (_, i) => from + i));
    }
  });

  it('gives each worker a contiguous run first, then lets it take from the back of the largest share', () => {
    const shares = splitShares(1, 100, 2);
    expect(shares).toEqual([
      { next: 1, end: 50 },
      { next: 51, end: 100 },
    ]);
    expect(nextBatch(shares, 0, 10)).toEqual([1, 10]);
    expect(nextBatch(shares, 1, 10)).toEqual([51, 60]);
    defined(shares[0], 'the share of worker 0').next = 51; // worker 0 is done with its share
    expect(nextBatch(shares, 0, 10)).toEqual([91, 100]);
    expect(nextBatch(shares, 1, 10)).toEqual([61, 70]);
  });
});
