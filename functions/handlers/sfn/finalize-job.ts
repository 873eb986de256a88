import { z } from 'zod';
import { finalizeJob } from '../../core/pipeline/finalize-job.ts';
import { jobDeps, pipelineSettings } from '../../shared/pipeline-container.ts';
import { stateMachineTask } from './pipeline.ts';

export const handler = stateMachineTask(
  z.object({ orgId: z.string(), jobId: z.string() }),
  async (input, log) => finalizeJob(await jobDeps(log), pipelineSettings(), input),
);
