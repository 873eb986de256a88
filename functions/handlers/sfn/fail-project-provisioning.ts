import { z } from 'zod';
import { failProvisioning } from '../../core/projects/provision-project.ts';
import { pipelineWiring } from '../../shared/wiring/pipeline.ts';
import { stateMachineTask } from './pipeline.ts';

const InputSchema = z.object({
  orgId: z.string().min(1),
  projectId: z.string().min(1),
  error: z.object({ Error: z.string().optional(), Cause: z.string().optional() }).optional(),
});

export const handler = stateMachineTask(InputSchema, async (input, log) => {
  // The cause stays in the log (it may hold internals); the project gets a generic public error.
  log.error('Project provisioning failed', { cause: input.error });
  return { ...input, ...(await failProvisioning({ projects: pipelineWiring(log).projects }, input)) };
});
