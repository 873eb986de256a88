/** Disjoint sets over the indices 0..size-1 (union-find with path compression): groups of joined pieces. */
export const unionFind = (size: number) => {
  const parent = new Int32Array(size).map((_, index) => index);
  const find = (index: number): number => {
    let root = index;
    while (parent[root] !== root) root = parent[root] ?? root;
    let at = index;
    while (parent[at] !== root) {
      const next = parent[at] ?? root;
      parent[at] = root;
      at = next;
    }
    return root;
  };
  return {
    find,
    union: (first: number, second: number): void => {
      const a = find(first);
      const b = find(second);
      if (a !== b) parent[b] = a;
    },
  };
};
