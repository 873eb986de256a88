import { z } from 'zod';
import { assembleFile } from '../../core/pipeline/assemble-file.ts';
import { pipelineDeps, pipelineSettings } from '../../shared/pipeline-container.ts';
import { pipelineTask } from './pipeline.ts';

export const handler = pipelineTask(
  z.object({ orgId: z.string(), jobId: z.string(), fileId: z.string() }),
  async (input) => assembleFile(await pipelineDeps(), pipelineSettings(), input),
);
