import { markProjectReady } from '../../core/projects/provision-project.ts';
import { pipelineWiring } from '../../shared/wiring/pipeline.ts';
import { stateMachineTask } from './pipeline.ts';
import { ProvisionInputSchema } from './set-up-project-resources.ts';

export const handler = stateMachineTask(ProvisionInputSchema, async (input, log) => ({
  ...input,
  ...(await markProjectReady({ projects: pipelineWiring(log).projects }, input)),
}));
