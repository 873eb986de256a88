/**
 * Scores read tables against labelled ones (the `tables.json` label format): detection by the frame's IoU,
 * header cells, body cells and whole rows exact (spaces collapsed, case folded). Rows empty in every cell are
 * dropped on both sides; body rows are aligned in order (a missed or extra row shifts nothing after it).
 */

export interface TableLabel {
  page: number;
  title: string;
  kind: string;
  bbox: [number, number, number, number];
  textLayer: boolean;
  header: string[][];
  rows: string[][];
}

export interface ReadTable {
  box: [number, number, number, number];
  header: string[][];
  rows: string[][];
}

export interface TableScore {
  detected: boolean;
  iou: number;
  headerCells: { exact: number; total: number };
  bodyCells: { exact: number; total: number };
  rows: { exact: number; total: number };
}

export const normalizeCell = (text: string): string => text.replace(/\s+/g, ' ').trim().toUpperCase();

export const boxIou = (a: readonly number[], b: readonly number[]): number => {
  const [ax0 = 0, ay0 = 0, ax1 = 0, ay1 = 0] = a;
  const [bx0 = 0, by0 = 0, bx1 = 0, by1 = 0] = b;
  const w = Math.max(0, Math.min(ax1, bx1) - Math.max(ax0, bx0));
  const h = Math.max(0, Math.min(ay1, by1) - Math.max(ay0, by0));
  const inter = w * h;
  const union = (ax1 - ax0) * (ay1 - ay0) + (bx1 - bx0) * (by1 - by0) - inter;
  return union > 0 ? inter / union : 0;
};

const nonEmpty = (rows: readonly string[][]): string[][] =>
  rows.filter((row) => row.some((cell) => normalizeCell(cell) !== ''));

/** Cells equal at the same column of two rows. */
const sameCells = (label: readonly string[], read: readonly string[]): number =>
  label.reduce(
    (count, cell, column) => count + (normalizeCell(cell) === normalizeCell(read[column] ?? '') ? 1 : 0),
    0,
  );

/**
 * Label rows paired with read rows in order, maximising the cells that agree (an alignment as in a diff):
 * for each label row, the read row it is paired with, or -1.
 */
export const alignRows = (label: readonly string[][], read: readonly string[][]): number[] => {
  const n = label.length;
  const m = read.length;
  // best(i, j): most agreeing cells pairing label rows from i on with read rows from j on.
  const table = new Float64Array((n + 1) * (m + 1));
  const best = (i: number, j: number): number => table[i * (m + 1) + j] ?? 0;
  const same = (i: number, j: number): number => sameCells(label[i] ?? [], read[j] ?? []);
  for (let i = n - 1; i >= 0; i--)
    for (let j = m - 1; j >= 0; j--) {
      const pair = same(i, j);
      table[i * (m + 1) + j] = Math.max(
        pair > 0 ? pair + best(i + 1, j + 1) : 0,
        best(i + 1, j),
        best(i, j + 1),
      );
    }
  const pairs = new Array<number>(n).fill(-1);
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    const pair = same(i, j);
    if (pair > 0 && best(i, j) === pair + best(i + 1, j + 1)) {
      pairs[i] = j;
      i++;
      j++;
    } else if (best(i, j) === best(i + 1, j)) i++;
    else j++;
  }
  return pairs;
};

export const scoreTable = (label: TableLabel, candidates: readonly ReadTable[]): TableScore => {
  const labelHeader = label.header;
  const labelRows = nonEmpty(label.rows);
  const headerTotal = labelHeader.reduce((sum, row) => sum + row.length, 0);
  const bodyTotal = labelRows.reduce((sum, row) => sum + row.length, 0);
  let match: ReadTable | null = null;
  let iou = 0;
  for (const candidate of candidates) {
    const overlap = boxIou(label.bbox, candidate.box);
    if (overlap > iou) {
      iou = overlap;
      match = candidate;
    }
  }
  const missed: TableScore = {
    detected: false,
    iou,
    headerCells: { exact: 0, total: headerTotal },
    bodyCells: { exact: 0, total: bodyTotal },
    rows: { exact: 0, total: labelRows.length },
  };
  if (!match || iou < 0.5) return missed;
  // Header rows aligned from the bottom (the row over the body), where a title row or spacer may differ.
  const readHeader = match.header;
  let headerExact = 0;
  for (let back = 1; back <= labelHeader.length; back++) {
    const labelRow = labelHeader[labelHeader.length - back] ?? [];
    const readRow = readHeader[readHeader.length - back] ?? [];
    headerExact += sameCells(labelRow, readRow);
  }
  const readRows = nonEmpty(match.rows);
  const pairs = alignRows(labelRows, readRows);
  let bodyExact = 0;
  let rowsExact = 0;
  pairs.forEach((j, i) => {
    if (j < 0) return;
    const labelRow = labelRows[i] ?? [];
    const readRow = readRows[j] ?? [];
    const same = sameCells(labelRow, readRow);
    bodyExact += same;
    if (same === labelRow.length && readRow.length === labelRow.length) rowsExact++;
  });
  return {
    detected: true,
    iou,
    headerCells: { exact: headerExact, total: headerTotal },
    bodyCells: { exact: bodyExact, total: bodyTotal },
    rows: { exact: rowsExact, total: labelRows.length },
  };
};

export interface Summary {
  tables: number;
  detection: number;
  headerCells: number;
  bodyCells: number;
  rows: number;
}

const share = (exact: number, total: number): number => (total > 0 ? exact / total : 0);

/** Shares from 0 to 1; cells and rows of undetected tables count as wrong. */
export const summarize = (scores: readonly TableScore[]): Summary => {
  const sum = (pick: (score: TableScore) => { exact: number; total: number }) =>
    scores.reduce(
      (acc, score) => ({ exact: acc.exact + pick(score).exact, total: acc.total + pick(score).total }),
      { exact: 0, total: 0 },
    );
  const header = sum((score) => score.headerCells);
  const body = sum((score) => score.bodyCells);
  const rows = sum((score) => score.rows);
  return {
    tables: scores.length,
    detection: share(scores.filter((score) => score.detected).length, scores.length),
    headerCells: share(header.exact, header.total),
    bodyCells: share(body.exact, body.total),
    rows: share(rows.exact, rows.total),
  };
};
