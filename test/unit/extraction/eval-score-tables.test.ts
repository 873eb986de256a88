import { describe, expect, it } from 'vitest';
import { scoreTable, summarize, type TableLabel } from '../../../bench/table-eval/score.ts';

const label: TableLabel = {
  page: 1,
  title: 'DOOR SCHEDULE',
  kind: 'door schedule',
  bbox: [100, 100, 500, 300],
  textLayer: true,
  header: [['MARK', 'ROOM', 'WIDTH']],
  rows: [
    ['101', 'OFFICE', '3-0'],
    ['', '', ''],
    ['102', 'STORAGE', '6-0'],
    ['103', 'HALL', '3-0'],
  ],
};

describe('table eval scoring', () => {
  it('aligns rows in order, so a missed row costs only its own cells, and drops all-empty rows', () => {
    // Prepare: the read table misses row 102, reads one cell of 103 differently, and its frame is close.
    const read = {
      box: [102, 100, 500, 298] as [number, number, number, number],
      header: [['Mark', 'ROOM', 'WIDTH']],
      rows: [
        ['101', 'OFFICE', '3-0'],
        ['103', 'HALL', '3-6'],
      ],
    };

    // Act
    const score = scoreTable(label, [read]);

    // Assess
    expect(score.detected).toBe(true);
    expect(score.headerCells).toEqual({ exact: 3, total: 3 });
    expect(score.bodyCells).toEqual({ exact: 5, total: 9 });
    expect(score.rows).toEqual({ exact: 1, total: 3 });
  });

  it('counts a table whose best frame overlaps under 0.5 as not found, its cells as wrong', () => {
    // Act
    const score = scoreTable(label, [{ box: [100, 100, 200, 150], header: label.header, rows: label.rows }]);

    // Assess
    expect(score.detected).toBe(false);
    expect(summarize([score])).toEqual({ tables: 1, detection: 0, headerCells: 0, bodyCells: 0, rows: 0 });
  });
});
