import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import middy from '@middy/core';
import { z } from 'zod';
import { setUpProjectResources } from '../../core/projects/provision-project.ts';
import { projectIndexStore, projectStore } from '../../shared/container.ts';
import { logger } from '../../shared/logger.ts';

export const ProvisionInputSchema = z.object({ orgId: z.string().min(1), projectId: z.string().min(1) });

export const handler = middy()
  .use(injectLambdaContext(logger, { resetKeys: true }))
  .handler(async (event: unknown) => {
    const input = ProvisionInputSchema.parse(event);
    logger.appendKeys(input);
    await setUpProjectResources({ projects: projectStore(), index: projectIndexStore() }, input);
    return input;
  });
