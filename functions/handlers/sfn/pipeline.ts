import type { Logger } from '@aws-lambda-powertools/logger';
import type { Context } from 'aws-lambda';
import type { z } from 'zod';
import { invocationLogger } from '../../shared/logger.ts';

/**
 * A state-machine task: validate the input once, log with its keys (organization, project, job,
 * file) through this invocation's own logger, run one step.
 */
export function stateMachineTask<S extends z.ZodType, R>(
  schema: S,
  step: (input: z.output<S>, log: Logger) => Promise<R>,
) {
  return async (event: unknown, context?: Context): Promise<R> => {
    const input = schema.parse(event);
    const { orgId, projectId, jobId, fileId } = input as Record<string, unknown>;
    const log = invocationLogger(context, { orgId, projectId, jobId, fileId });
    const started = performance.now();
    const result = await step(input, log);
    log.info('Task finished', { elapsedMs: Math.round(performance.now() - started) });
    return result;
  };
}
