/**
 * One-to-one assignment of rows to columns that maximizes the summed weight, over positive weights only:
 * a row (a new sheet) takes at most one column (a sheet the project holds) and a column at most one row, and
 * a pair whose weight is not positive is never taken (leaving both unassigned is worth 0).
 *
 * The rows and columns joined by positive weights fall apart into small groups (a sheet's candidates are
 * its own earlier printing and a few look-alikes); each group is solved exactly by the Hungarian method on
 * the group's square matrix, where every row and column also has its "unassigned" place.
 */

/** `weights[row][column]`; returns, per row, its column or null. */
export const bestAssignment = (weights: readonly (readonly number[])[]): (number | null)[] => {
  const rows = weights.length;
  const columns = Math.max(0, ...weights.map((row) => row.length));
  const assigned: (number | null)[] = Array.from({ length: rows }, () => null);
  // Groups: rows and columns connected through positive weights (union-find over rows + columns).
  const parent = Array.from({ length: rows + columns }, (_, index) => index);
  const find = (node: number): number => {
    let root = node;
    while (parent[root] !== root) root = parent[root] as number;
    while (parent[node] !== root) {
      const next = parent[node] as number;
      parent[node] = root;
      node = next;
    }
    return root;
  };
  weights.forEach((row, r) => {
    row.forEach((weight, c) => {
      if (weight > 0) parent[find(r)] = find(rows + c);
    });
  });
  const groups = new Map<number, { rows: number[]; columns: number[] }>();
  for (let node = 0; node < rows + columns; node++) {
    const root = find(node);
    const group = groups.get(root) ?? { rows: [], columns: [] };
    if (node < rows) group.rows.push(node);
    else group.columns.push(node - rows);
    groups.set(root, group);
  }
  for (const group of groups.values()) {
    if (group.rows.length === 0 || group.columns.length === 0) continue;
    const solved = hungarian(group.rows.map((r) => group.columns.map((c) => weights[r]?.[c] ?? 0)));
    solved.forEach((column, index) => {
      const row = group.rows[index] as number;
      assigned[row] = column === null ? null : (group.columns[column] as number);
    });
  }
  return assigned;
};

/**
 * The Hungarian method (shortest augmenting paths with potentials, O(n^3)) on the (r + c) square cost
 * matrix: [ -weight | unassigned-row diagonal ; unassigned-column diagonal | 0 ].
 */
const hungarian = (weights: number[][]): (number | null)[] => {
  const r = weights.length;
  const c = weights[0]?.length ?? 0;
  const n = r + c;
  const FORBIDDEN = 1e9;
  const cost = (i: number, j: number): number => {
    if (i < r && j < c) {
      const weight = weights[i]?.[j] ?? 0;
      return weight > 0 ? -weight : FORBIDDEN;
    }
    if (i < r) return j - c === i ? 0 : FORBIDDEN; // row i left unassigned
    if (j < c) return i - r === j ? 0 : FORBIDDEN; // column j left unassigned
    return 0;
  };
  // 1-based arrays as in the classic formulation; p[j] is the row matched to column j.
  const u = new Float64Array(n + 1);
  const v = new Float64Array(n + 1);
  const p = new Int32Array(n + 1);
  const way = new Int32Array(n + 1);
  for (let i = 1; i <= n; i++) {
    p[0] = i;
    let j0 = 0;
    const minv = new Float64Array(n + 1).fill(Number.POSITIVE_INFINITY);
    const used = new Uint8Array(n + 1);
    do {
      used[j0] = 1;
      const i0 = p[j0] as number;
      let delta = Number.POSITIVE_INFINITY;
      let j1 = 0;
      for (let j = 1; j <= n; j++) {
        if (used[j]) continue;
        const reduced = cost(i0 - 1, j - 1) - (u[i0] as number) - (v[j] as number);
        if (reduced < (minv[j] as number)) {
          minv[j] = reduced;
          way[j] = j0;
        }
        if ((minv[j] as number) < delta) {
          delta = minv[j] as number;
          j1 = j;
        }
      }
      for (let j = 0; j <= n; j++) {
        if (used[j]) {
          u[p[j] as number] = (u[p[j] as number] as number) + delta;
          v[j] = (v[j] as number) - delta;
        } else minv[j] = (minv[j] as number) - delta;
      }
      j0 = j1;
    } while (p[j0] !== 0);
    do {
      const j1 = way[j0] as number;
      p[j0] = p[j1] as number;
      j0 = j1;
    } while (j0 !== 0);
  }
  const out: (number | null)[] = Array.from({ length: r }, () => null);
  for (let j = 1; j <= c; j++) {
    const row = (p[j] as number) - 1;
    if (row >= 0 && row < r && cost(row, j - 1) < 0) out[row] = j - 1;
  }
  return out;
};
