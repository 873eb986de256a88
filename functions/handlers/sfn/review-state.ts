import { z } from 'zod';
import type { ExecutionState } from '../../core/reviews/execute.ts';

/**
 * The state a review execution carries between its tasks. The ids are checked; the conversation is
 * our own output of the previous step (the state machine's payload), passed on as it is.
 */
export const executionStateSchema = z
  .object({
    orgId: z.string(),
    executionId: z.string(),
    done: z.boolean().default(false),
    next: z.enum(['tools', 'finish']).nullable().default(null),
    calls: z.array(z.unknown()).default([]),
    conversation: z.unknown().nullable().default(null),
  })
  .transform((state) => state as ExecutionState);
