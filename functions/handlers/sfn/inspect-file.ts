import { z } from 'zod';
import { inspectJobFile } from '../../core/pipeline/inspect-file.ts';
import { engineWiring } from '../../shared/wiring/engine.ts';
import { stateMachineTask } from './pipeline.ts';

export const handler = stateMachineTask(
  z.object({ orgId: z.string(), jobId: z.string(), fileId: z.string() }),
  async (input, log) => {
    const engine = engineWiring(log);
    return inspectJobFile(engine, engine.settings, input);
  },
);
