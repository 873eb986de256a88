import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { BENCHMARKS_DOC, benchNames, renderBenchmarks } from '../../../bench/report.ts';
import { readResults } from '../../../bench/results.ts';

describe('docs/benchmarks.md', () => {
  it('is what the latest bench results render (npm run bench:report)', () => {
    // Prepare
    const rendered = renderBenchmarks(readResults(), benchNames());

    // Act
    const committed = readFileSync(BENCHMARKS_DOC, 'utf8');

    // Assess
    expect(committed).toBe(rendered);
  });

  it('has a result for every bench that records one', () => {
    // Assess
    const names = benchNames();
    for (const result of readResults()) expect(names).toContain(result.bench);
  });
});
