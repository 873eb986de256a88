import { z } from 'zod';
import { failExecution } from '../../core/reviews/execute.ts';
import { reviewWiring } from '../../shared/wiring/review.ts';
import { stateMachineTask } from './pipeline.ts';

export const handler = stateMachineTask(
  z.object({
    orgId: z.string(),
    executionId: z.string(),
    error: z.object({ Error: z.string().optional(), Cause: z.string().optional() }).optional(),
  }),
  async (input) => failExecution(reviewWiring(), input),
);
