import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import middy from '@middy/core';
import type { z } from 'zod';
import { logger } from '../../shared/logger.ts';

/** A state-machine task: validate the input once, log with the job's keys, run one step. */
export function pipelineTask<S extends z.ZodType, R>(schema: S, step: (input: z.output<S>) => Promise<R>) {
  return middy()
    .use(injectLambdaContext(logger, { resetKeys: true }))
    .handler(async (event: unknown) => {
      const input = schema.parse(event);
      const keys = input as { orgId?: string; jobId?: string; fileId?: string };
      logger.appendKeys({ orgId: keys.orgId, jobId: keys.jobId, fileId: keys.fileId });
      const started = performance.now();
      const result = await step(input);
      logger.info('Task finished', { elapsedMs: Math.round(performance.now() - started) });
      return result;
    });
}
