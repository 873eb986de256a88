import { runTools } from '../../core/reviews/execute.ts';
import { toolDeps } from '../../shared/review-tools-container.ts';
import { stateMachineTask } from './pipeline.ts';
import { executionStateSchema } from './review-state.ts';

export const handler = stateMachineTask(executionStateSchema, async (input) => runTools(toolDeps(), input));
