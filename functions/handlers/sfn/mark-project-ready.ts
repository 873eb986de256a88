import { markProjectReady } from '../../core/projects/provision-project.ts';
import { projectStore } from '../../shared/container.ts';
import { stateMachineTask } from './pipeline.ts';
import { ProvisionInputSchema } from './set-up-project-resources.ts';

export const handler = stateMachineTask(ProvisionInputSchema, async (input) => ({
  ...input,
  ...(await markProjectReady({ projects: projectStore() }, input)),
}));
