import { z } from 'zod';
import { prepareReconcile } from '../../core/search/reconcile.ts';
import { searchWiring } from '../../shared/wiring/search.ts';
import { stateMachineTask } from './pipeline.ts';

export const handler = stateMachineTask(
  z.object({ orgId: z.string(), jobId: z.string() }),
  async (input, log) => prepareReconcile(searchWiring(log), input),
);
