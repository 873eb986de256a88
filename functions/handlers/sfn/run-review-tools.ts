import { runTools } from '../../core/reviews/execute.ts';
import { toolWiring } from '../../shared/wiring/search.ts';
import { stateMachineTask } from './pipeline.ts';
import { executionStateSchema } from './review-state.ts';

export const handler = stateMachineTask(executionStateSchema, async (input) => runTools(toolWiring(), input));
