import { z } from 'zod';
import { failFile } from '../../core/pipeline/fail-job.ts';
import { pipelineWiring } from '../../shared/wiring/pipeline.ts';
import { stateMachineTask } from './pipeline.ts';

/** A file whose branch of the Map failed after retries: that file alone fails. */
export const handler = stateMachineTask(
  z.object({ orgId: z.string(), jobId: z.string(), fileId: z.string(), error: z.unknown().optional() }),
  async (input, log) => failFile(pipelineWiring(log), input),
);
