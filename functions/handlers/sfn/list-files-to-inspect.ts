import { z } from 'zod';
import { listFilesToInspect } from '../../core/pipeline/inspect-file.ts';
import { pipelineWiring } from '../../shared/wiring/pipeline.ts';
import { stateMachineTask } from './pipeline.ts';

export const handler = stateMachineTask(
  z.object({ orgId: z.string(), jobId: z.string() }),
  async (input, log) => listFilesToInspect(pipelineWiring(log), input),
);
