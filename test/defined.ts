/**
 * The value when it is there; otherwise the test fails here, saying what was missing (where a non-null
 * assertion would fail later with a TypeError on `undefined`).
 */
export const defined = <T>(value: T | null | undefined, what: string): T => {
  if (value === null || value === undefined) throw new Error(`expected ${what}, got ${value}`);
  return value;
};
