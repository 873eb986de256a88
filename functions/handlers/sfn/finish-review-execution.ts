import { finishExecution } from '../../core/reviews/execute.ts';
import { executionDeps } from '../../shared/review-container.ts';
import { stateMachineTask } from './pipeline.ts';
import { executionStateSchema } from './review-state.ts';

export const handler = stateMachineTask(executionStateSchema, async (input) =>
  finishExecution(executionDeps(), input),
);
