import { z } from 'zod';
import { failJob } from '../../core/pipeline/fail-job.ts';
import { pipelineWiring } from '../../shared/wiring/pipeline.ts';
import { stateMachineTask } from './pipeline.ts';

/** The state machine's Catch: the cause stays in the log; the job gets a public error. */
export const handler = stateMachineTask(
  z.object({
    orgId: z.string(),
    jobId: z.string(),
    error: z.object({ Error: z.string().optional(), Cause: z.string().optional() }).optional(),
  }),
  async (input, log) => {
    log.error('Job processing failed', { cause: input.error });
    return failJob(pipelineWiring(log), { orgId: input.orgId, jobId: input.jobId });
  },
);
