import { z } from 'zod';
import { extractPageBatch } from '../../core/pipeline/extract-page-batch.ts';
import { pipelineDeps } from '../../shared/engine-container.ts';
import { stateMachineTask } from './pipeline.ts';

export const handler = stateMachineTask(
  z.object({
    orgId: z.string(),
    jobId: z.string(),
    fileId: z.string(),
    from: z.number().int().min(1),
    to: z.number().int().min(1),
  }),
  async (input, log, remainingMs) => extractPageBatch(await pipelineDeps(log), input, remainingMs),
);
