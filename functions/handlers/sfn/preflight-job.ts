import { z } from 'zod';
import { preflightJob } from '../../core/pipeline/preflight-job.ts';
import { jobDeps, pipelineSettings } from '../../shared/pipeline-container.ts';
import { stateMachineTask } from './pipeline.ts';

export const handler = stateMachineTask(
  z.object({ orgId: z.string(), jobId: z.string() }),
  async (input, log) => preflightJob(await jobDeps(log), pipelineSettings(), input),
);
