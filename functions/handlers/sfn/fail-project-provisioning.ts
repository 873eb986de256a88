import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import middy from '@middy/core';
import { z } from 'zod';
import { failProvisioning } from '../../core/projects/provision-project.ts';
import { projectStore } from '../../shared/container.ts';
import { logger } from '../../shared/logger.ts';

const InputSchema = z.object({
  orgId: z.string().min(1),
  projectId: z.string().min(1),
  error: z.object({ Error: z.string().optional(), Cause: z.string().optional() }).optional(),
});

export const handler = middy()
  .use(injectLambdaContext(logger, { resetKeys: true }))
  .handler(async (event: unknown) => {
    const input = InputSchema.parse(event);
    logger.appendKeys({ orgId: input.orgId, projectId: input.projectId });
    // The cause stays in the log (it may hold internals); the project gets a generic public error.
    logger.error('Project provisioning failed', { cause: input.error });
    return { ...input, ...(await failProvisioning({ projects: projectStore() }, input)) };
  });
