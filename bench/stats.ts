/** The value at fraction `p` (0 to 1) of the sorted values: `percentile(samples, 0.95)` is the p95. */
export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] as number;
}
