import { z } from 'zod';
import { preflightJob } from '../../core/pipeline/preflight-job.ts';
import { pipelineDeps, pipelineSettings } from '../../shared/pipeline-container.ts';
import { pipelineTask } from './pipeline.ts';

export const handler = pipelineTask(z.object({ orgId: z.string(), jobId: z.string() }), async (input) =>
  preflightJob(await pipelineDeps(), pipelineSettings(), input),
);
