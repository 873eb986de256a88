import { describe, expect, it } from 'vitest';
import { batchesFor, batchSizeFor, inStartOrder } from '../../../functions/core/pipeline/model.ts';

describe('page batch planning', () => {
  it('covers every page exactly once, in order, the last batch shorter', () => {
    // Act
    const batches = batchesFor(11, 4);

    // Assess
    expect(batches).toEqual([
      { from: 1, to: 4 },
      { from: 5, to: 8 },
      { from: 9, to: 11 },
    ]);
  });

  it('gives drawing sets small batches and long text books at most 16 batches', () => {
    // Act
    const drawings = batchSizeFor(40, 39, 25);
    const book = batchSizeFor(775, 0, 25);
    const short = batchSizeFor(30, 0, 25);

    // Assess
    expect(drawings).toBe(4);
    expect(batchesFor(775, book).length).toBeLessThanOrEqual(16);
    expect(short).toBe(25);
  });

  it('starts the batches holding pages without text first, most first, the others in page order', () => {
    // Prepare: 5 batches of 10 pages; pages 35 and 47-48 print no text.
    const batches = batchesFor(50, 10);

    // Act
    const ordered = inStartOrder(batches, [35, 47, 48]);
    const unchanged = inStartOrder(batches);

    // Assess
    expect(ordered.map((batch) => batch.from)).toEqual([41, 31, 1, 11, 21]);
    expect(unchanged).toEqual(batches);
  });
});
