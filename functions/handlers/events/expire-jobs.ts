import type { Context } from 'aws-lambda';
import { expireJobs } from '../../core/pipeline/expire-jobs.ts';
import { invocationLogger } from '../../shared/logger.ts';
import { pipelineWiring } from '../../shared/wiring/pipeline.ts';

/** Jobs ended per run; the schedule runs again long before more could pile up. */
const PER_RUN = 200;

/**
 * The scheduled sweep (an EventBridge schedule on AWS, a timer of the local stack): jobs whose upload
 * window ended while they still waited for uploads end `failed` with `job_expired`.
 */
export async function handler(_event: unknown, context?: Context) {
  const log = invocationLogger(context, {});
  const outcome = await expireJobs(pipelineWiring(log), { now: new Date(), limit: PER_RUN });
  if (outcome.expired.length > 0)
    log.info('Expired jobs', { count: outcome.expired.length, jobIds: outcome.expired });
  return outcome;
}
