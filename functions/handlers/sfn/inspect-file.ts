import { z } from 'zod';
import { inspectJobFile } from '../../core/pipeline/inspect-file.ts';
import { pipelineDeps } from '../../shared/engine-container.ts';
import { pipelineSettings } from '../../shared/pipeline-container.ts';
import { stateMachineTask } from './pipeline.ts';

export const handler = stateMachineTask(
  z.object({ orgId: z.string(), jobId: z.string(), fileId: z.string() }),
  async (input, log) => inspectJobFile(await pipelineDeps(log), pipelineSettings(), input),
);
