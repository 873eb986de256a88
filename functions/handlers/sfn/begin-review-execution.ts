import { beginExecution } from '../../core/reviews/execute.ts';
import { reviewWiring } from '../../shared/wiring/review.ts';
import { stateMachineTask } from './pipeline.ts';
import { executionStateSchema } from './review-state.ts';

export const handler = stateMachineTask(executionStateSchema, async (input) =>
  beginExecution(reviewWiring(), input),
);
