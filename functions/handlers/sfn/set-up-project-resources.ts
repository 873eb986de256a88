import { z } from 'zod';
import { setUpProjectResources } from '../../core/projects/provision-project.ts';
import { pipelineWiring } from '../../shared/wiring/pipeline.ts';
import { stateMachineTask } from './pipeline.ts';

export const ProvisionInputSchema = z.object({ orgId: z.string().min(1), projectId: z.string().min(1) });

export const handler = stateMachineTask(ProvisionInputSchema, async (input, log) => {
  const pipeline = pipelineWiring(log);
  await setUpProjectResources({ projects: pipeline.projects, index: pipeline.projectIndexes }, input);
  return input;
});
