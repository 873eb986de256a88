import { z } from 'zod';
import { finalizeJob } from '../../core/pipeline/finalize-job.ts';
import { pipelineWiring } from '../../shared/wiring/pipeline.ts';
import { stateMachineTask } from './pipeline.ts';

export const handler = stateMachineTask(
  z.object({ orgId: z.string(), jobId: z.string() }),
  async (input, log) => {
    const pipeline = pipelineWiring(log);
    return finalizeJob(pipeline, pipeline.settings, input);
  },
);
