import { z } from 'zod';
import { indexFile } from '../../core/search/index-file.ts';
import { searchWiring } from '../../shared/wiring/search.ts';
import { stateMachineTask } from './pipeline.ts';

export const handler = stateMachineTask(
  z.object({ orgId: z.string(), jobId: z.string(), fileId: z.string() }),
  async (input, log) => indexFile(searchWiring(log), input),
);
