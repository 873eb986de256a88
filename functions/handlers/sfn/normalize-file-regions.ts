import { z } from 'zod';
import { normalizeFileRegions } from '../../core/pipeline/normalize-file-regions.ts';
import { engineWiring } from '../../shared/wiring/engine.ts';
import { stateMachineTask } from './pipeline.ts';

export const handler = stateMachineTask(
  z.object({
    orgId: z.string(),
    jobId: z.string(),
    fileId: z.string(),
    fromPage: z.number().int().min(1),
    countedPages: z.number().int().min(0),
  }),
  async (input, log) => {
    const engine = engineWiring(log);
    return normalizeFileRegions(engine, { pagesPerRun: engine.settings.pagesPerBatch }, input);
  },
);
