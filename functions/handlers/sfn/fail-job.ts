import { z } from 'zod';
import { failJob } from '../../core/pipeline/fail-job.ts';
import { jobDeps } from '../../shared/pipeline-container.ts';
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
    return failJob(await jobDeps(log), { orgId: input.orgId, jobId: input.jobId });
  },
);
