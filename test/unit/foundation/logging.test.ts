import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { stateMachineTask } from '../../../functions/handlers/sfn/pipeline.ts';

describe('per-invocation logging', () => {
  afterEach(() => vi.restoreAllMocks());

  it('keeps each concurrent invocation on its own keys', async () => {
    // Prepare: a task that logs after yielding, so two invocations interleave.
    const lines: string[] = [];
    for (const stream of [process.stdout, process.stderr]) {
      vi.spyOn(stream, 'write').mockImplementation((chunk: string | Uint8Array) => {
        lines.push(String(chunk));
        return true;
      });
    }
    const task = stateMachineTask(z.object({ orgId: z.string(), jobId: z.string() }), async (input, log) => {
      await new Promise((resolve) => setTimeout(resolve, input.jobId === 'job_a' ? 20 : 1));
      log.error('step done', { seen: input.jobId });
      return input.jobId;
    });

    // Act
    const results = await Promise.all([
      task({ orgId: 'org_1', jobId: 'job_a' }),
      task({ orgId: 'org_1', jobId: 'job_b' }),
    ]);

    // Assess
    const logged = lines
      .flatMap((line) => line.split('\n'))
      .filter((line) => line.includes('step done'))
      .map((line) => JSON.parse(line) as { jobId: string; seen: string });
    expect(results).toEqual(['job_a', 'job_b']);
    expect(logged).toHaveLength(2);
    for (const entry of logged) expect(entry.jobId).toBe(entry.seen);
  });
});
