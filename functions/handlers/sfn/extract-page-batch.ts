import { z } from 'zod';
import { recordMetric } from '../../adapters/cloudwatch/metrics.ts';
import { extractPageBatch } from '../../core/pipeline/extract-page-batch.ts';
import { engineWiring } from '../../shared/wiring/engine.ts';
import { stateMachineTask } from './pipeline.ts';

export const handler = stateMachineTask(
  z.object({
    orgId: z.string(),
    jobId: z.string(),
    fileId: z.string(),
    from: z.number().int().min(1),
    to: z.number().int().min(1),
  }),
  async (input, log, remainingMs) => {
    const result = await extractPageBatch(engineWiring(log), input, remainingMs);
    // A batch counts once it is whole; a run that stops short of time counts in the run that ends it.
    if (result.done) recordMetric('PagesExtracted', result.pages);
    return result;
  },
);
