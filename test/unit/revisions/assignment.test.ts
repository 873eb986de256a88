import { describe, expect, it } from 'vitest';
import { bestAssignment } from '../../../functions/core/revisions/assignment.ts';
import { seeded } from './drawing-sets.ts';

/** Every one-to-one assignment over positive weights, the best total (small matrices only). */
const bruteForceBest = (weights: number[][]): number => {
  const columns = weights[0]?.length ?? 0;
  const search = (row: number, used: Set<number>): number => {
    if (row === weights.length) return 0;
    let best = search(row + 1, used);
    for (let column = 0; column < columns; column++) {
      const weight = weights[row]?.[column] ?? 0;
      if (weight <= 0 || used.has(column)) continue;
      used.add(column);
      best = Math.max(best, weight + search(row + 1, used));
      used.delete(column);
    }
    return best;
  };
  return search(0, new Set());
};

const total = (weights: number[][], assigned: (number | null)[]): number =>
  assigned.reduce<number>(
    (sum, column, row) => sum + (column === null ? 0 : (weights[row]?.[column] ?? 0)),
    0,
  );

describe('one-to-one assignment of new sheets to held ones', () => {
  it('gives up a row its best column when the whole set gains (where per-row greedy choice loses)', () => {
    // Prepare: row 0 prefers column 0 (5 over 4), but column 0 is row 1's only candidate.
    const weights = [
      [5, 4],
      [4, -2],
    ];

    // Act
    const assigned = bestAssignment(weights);

    // Assess: 4 + 4 = 8, where greedy takes 5 and leaves row 1 without a match.
    expect(assigned).toEqual([1, 0]);
  });

  it('never takes a pair whose weight is not positive, and leaves such rows unassigned', () => {
    expect(
      bestAssignment([
        [-1, 0],
        [0, 3],
        [2, -5],
      ]),
    ).toEqual([null, 1, 0]);
    expect(bestAssignment([])).toEqual([]);
    expect(bestAssignment([[], []])).toEqual([null, null]);
  });

  it('finds the best total of every small random matrix (checked by trying every assignment)', () => {
    const random = seeded(33);
    for (let trial = 0; trial < 200; trial++) {
      // Prepare
      const rows = 1 + Math.floor(random() * 5);
      const columns = 1 + Math.floor(random() * 5);
      const weights = Array.from({ length: rows }, () =>
        Array.from({ length: columns }, () => Math.round((random() * 10 - 6) * 10) / 10),
      );

      // Act
      const assigned = bestAssignment(weights);

      // Assess: one to one, positive pairs only, and the best total.
      const taken = assigned.filter((column) => column !== null);
      expect(new Set(taken).size).toBe(taken.length);
      for (const [row, column] of assigned.entries())
        expect(column === null || (weights[row]?.[column] ?? 0) > 0).toBe(true);
      expect(total(weights, assigned)).toBeCloseTo(bruteForceBest(weights), 9);
    }
  });
});
