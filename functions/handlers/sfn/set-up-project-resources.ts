import { z } from 'zod';
import { setUpProjectResources } from '../../core/projects/provision-project.ts';
import { projectIndexStore, projectStore } from '../../shared/container.ts';
import { stateMachineTask } from './pipeline.ts';

export const ProvisionInputSchema = z.object({ orgId: z.string().min(1), projectId: z.string().min(1) });

export const handler = stateMachineTask(ProvisionInputSchema, async (input) => {
  await setUpProjectResources({ projects: projectStore(), index: projectIndexStore() }, input);
  return input;
});
