import { z } from 'zod';
import { finalizeJob } from '../../core/pipeline/finalize-job.ts';
import { pipelineDeps, pipelineSettings } from '../../shared/pipeline-container.ts';
import { stateMachineTask } from './pipeline.ts';

export const handler = stateMachineTask(
  z.object({ orgId: z.string(), jobId: z.string() }),
  async (input, log) => finalizeJob(await pipelineDeps(log), pipelineSettings(), input),
);
