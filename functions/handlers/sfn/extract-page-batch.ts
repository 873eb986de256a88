import { z } from 'zod';
import { extractPageBatch } from '../../core/pipeline/extract-page-batch.ts';
import { pipelineDeps } from '../../shared/pipeline-container.ts';
import { pipelineTask } from './pipeline.ts';

export const handler = pipelineTask(
  z.object({
    orgId: z.string(),
    jobId: z.string(),
    fileId: z.string(),
    from: z.number().int().min(1),
    to: z.number().int().min(1),
  }),
  async (input) => extractPageBatch(await pipelineDeps(), input),
);
