import { z } from 'zod';
import { finalizeJob } from '../../core/pipeline/finalize-job.ts';
import { pipelineDeps, pipelineSettings } from '../../shared/pipeline-container.ts';
import { pipelineTask } from './pipeline.ts';

export const handler = pipelineTask(z.object({ orgId: z.string(), jobId: z.string() }), async (input) =>
  finalizeJob(await pipelineDeps(), pipelineSettings(), input),
);
