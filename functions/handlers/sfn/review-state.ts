import { z } from 'zod';
import type { ExecutionState } from '../../core/reviews/execute.ts';

/**
 * The state a review execution carries between its tasks. The ids are checked; the conversation is
 * our own output of the previous step, in the artifacts bucket under `conversationKey`.
 */
export const executionStateSchema = z
  .object({
    orgId: z.string(),
    executionId: z.string(),
    done: z.boolean().default(false),
    next: z.enum(['tools', 'finish']).nullable().default(null),
    calls: z.array(z.unknown()).default([]),
    conversationKey: z
      .string()
      .regex(/^work\/reviews\/[A-Za-z0-9_-]+\/[A-Za-z0-9_-]+\.json$/)
      .nullable()
      .default(null),
  })
  .transform((state) => state as ExecutionState);
