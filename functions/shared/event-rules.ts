import { ENDED_STATUSES } from '../core/recovery/ended-executions.ts';
import type { Access } from './resources.ts';

/**
 * The target of the rule on this service's executions that end outside their catchers (an EventBridge
 * rule on AWS, the local runner locally): one definition for both.
 */
export const ENDED_EXECUTIONS_TARGET = {
  id: 'recoverEndedExecutions',
  handler: 'functions/handlers/events/execution-ended.ts',
  statuses: ENDED_STATUSES,
  access: { table: 'readwrite', webhookQueue: 'send' } satisfies Access,
  timeoutSeconds: 120,
  memoryMb: 512,
} as const;

/** The sweep of jobs whose upload window ended (a schedule on AWS, a timer locally). */
export const EXPIRE_JOBS_SCHEDULE = {
  id: 'expireJobs',
  handler: 'functions/handlers/events/expire-jobs.ts',
  everyMinutes: 15,
  access: { table: 'readwrite', webhookQueue: 'send' } satisfies Access,
  timeoutSeconds: 300,
  memoryMb: 512,
} as const;
