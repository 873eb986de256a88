import type { Logger } from '@aws-lambda-powertools/logger';
import type { Context } from 'aws-lambda';
import type { z } from 'zod';
import { invocationLogger } from '../../shared/logger.ts';

/**
 * A state-machine task: validate the input once, log with its keys (organization, project, job,
 * file) through this invocation's own logger, run one step (told how much of the function's time is
 * left, so long steps can stop in time and continue in the next run).
 */
export function stateMachineTask<S extends z.ZodType, R>(
  schema: S,
  step: (input: z.output<S>, log: Logger, remainingMs: () => number) => Promise<R>,
) {
  return async (event: unknown, context?: Context): Promise<R> => {
    const input = schema.parse(event);
    const { orgId, projectId, jobId, fileId } = input as Record<string, unknown>;
    const log = invocationLogger(context, { orgId, projectId, jobId, fileId });
    const started = performance.now();
    // Invoked without a Lambda context (a script): no deadline.
    const remainingMs = () => context?.getRemainingTimeInMillis() ?? Number.POSITIVE_INFINITY;
    const result = await step(input, log, remainingMs);
    log.info('Task finished', { elapsedMs: Math.round(performance.now() - started) });
    return result;
  };
}
