import type { Context } from 'aws-lambda';
import { z } from 'zod';
import { failJob } from '../../core/pipeline/fail-job.ts';
import { failProvisioning } from '../../core/projects/provision-project.ts';
import { ENDED_STATUSES, recoverEndedExecution } from '../../core/recovery/ended-executions.ts';
import { failExecution } from '../../core/reviews/execute.ts';
import { invocationLogger } from '../../shared/logger.ts';
import { pipelineWiring } from '../../shared/wiring/pipeline.ts';
import { reviewWiring } from '../../shared/wiring/review.ts';

/** EventBridge's "Step Functions Execution Status Change" event, the fields read here. */
const EventSchema = z.object({
  'detail-type': z.literal('Step Functions Execution Status Change'),
  detail: z.object({
    executionArn: z.string(),
    stateMachineArn: z.string(),
    status: z.enum(ENDED_STATUSES),
    input: z.string().nullable().optional(),
    error: z.string().nullable().optional(),
    cause: z.string().nullable().optional(),
  }),
});

/**
 * The target of the rule on executions that ended FAILED, TIMED_OUT or ABORTED (lib/stateless-stack.ts;
 * the local runner invokes it the same way): fails the job, review execution or project the execution
 * worked for. An error is thrown back so EventBridge retries, then keeps the event in the rule's
 * dead-letter queue.
 */
export async function handler(event: unknown, context?: Context) {
  const { detail } = EventSchema.parse(event);
  const log = invocationLogger(context, { executionArn: detail.executionArn });
  // The error and cause stay in the log: they may hold internals.
  log.warn('Execution ended outside its catchers', {
    status: detail.status,
    stateMachineArn: detail.stateMachineArn,
    error: detail.error ?? undefined,
    cause: detail.cause ?? undefined,
  });
  const recovered = await recoverEndedExecution(
    {
      failJob: (input) => failJob(pipelineWiring(log), input),
      failReviewExecution: (input) => failExecution(reviewWiring(), input),
      failProvisioning: (input) => failProvisioning({ projects: pipelineWiring(log).projects }, input),
    },
    { status: detail.status, input: detail.input ?? null },
  );
  if (recovered.resource === null) log.error('Ended execution not recovered', { reason: recovered.reason });
  else log.info('Ended execution recovered', { ...recovered });
  return recovered;
}
