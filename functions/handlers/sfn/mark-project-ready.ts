import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import middy from '@middy/core';
import { markProjectReady } from '../../core/projects/provision-project.ts';
import { projectStore } from '../../shared/container.ts';
import { logger } from '../../shared/logger.ts';
import { ProvisionInputSchema } from './set-up-project-resources.ts';

export const handler = middy()
  .use(injectLambdaContext(logger, { resetKeys: true }))
  .handler(async (event: unknown) => {
    const input = ProvisionInputSchema.parse(event);
    logger.appendKeys(input);
    return { ...input, ...(await markProjectReady({ projects: projectStore() }, input)) };
  });
