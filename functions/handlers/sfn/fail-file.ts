import { z } from 'zod';
import { failFile } from '../../core/pipeline/fail-job.ts';
import { pipelineDeps } from '../../shared/pipeline-container.ts';
import { pipelineTask } from './pipeline.ts';

/** A file whose branch of the Map failed after retries: that file alone fails. */
export const handler = pipelineTask(
  z.object({ orgId: z.string(), jobId: z.string(), fileId: z.string(), error: z.unknown().optional() }),
  async (input) => failFile(await pipelineDeps(), input),
);
