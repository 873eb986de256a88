import { z } from 'zod';
import { normalizeFileRegions } from '../../core/pipeline/normalize-file-regions.ts';
import { contentStore } from '../../shared/container.ts';
import { pipelineDeps } from '../../shared/engine-container.ts';
import { extend } from '../../shared/lazy.ts';
import { pipelineSettings } from '../../shared/pipeline-container.ts';
import { stateMachineTask } from './pipeline.ts';

export const handler = stateMachineTask(
  z.object({
    orgId: z.string(),
    jobId: z.string(),
    fileId: z.string(),
    fromPage: z.number().int().min(1),
    countedPages: z.number().int().min(0),
  }),
  async (input, log) =>
    normalizeFileRegions(
      extend(await pipelineDeps(log), { regions: contentStore() }),
      { pagesPerRun: pipelineSettings().pagesPerBatch },
      input,
    ),
);
