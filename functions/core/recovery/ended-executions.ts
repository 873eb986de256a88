import { z } from 'zod';

/**
 * Executions that ended outside their own catchers: timed out, aborted, or failed by the service
 * itself (the event history limit, `States.DataLimitExceeded`, `States.Runtime`). Step Functions
 * reports every execution that ends so (EventBridge on AWS, the local runner locally); the resource
 * the execution worked for then ends failed, as the machine's own failure step would have ended it:
 * a job fails and its reserved credits are released, a review execution fails with a public error, a
 * project's provisioning fails and its charge is refunded. Each of those steps is idempotent, so an
 * execution that already failed through its own catcher changes nothing.
 */

export const ENDED_STATUSES = ['FAILED', 'TIMED_OUT', 'ABORTED'] as const;
export type EndedStatus = (typeof ENDED_STATUSES)[number];

/** The inputs the machines are started with (`{orgId, executionId}`, `{orgId, jobId}`, `{orgId, projectId}`). */
const ReviewInput = z.object({ orgId: z.string().min(1), executionId: z.string().min(1) });
const JobInput = z.object({ orgId: z.string().min(1), jobId: z.string().min(1) });
const ProjectInput = z.object({ orgId: z.string().min(1), projectId: z.string().min(1) });
/** The items the job machine's Distributed Maps hand to their child executions (`fileId` or `file`). */
const MapItemInput = z.union([z.object({ fileId: z.string() }), z.object({ file: z.object({}) })]);

export interface RecoveryPorts {
  failJob(input: { orgId: string; jobId: string }): Promise<unknown>;
  failReviewExecution(input: {
    orgId: string;
    executionId: string;
    error: { Error: string; Cause: string };
  }): Promise<unknown>;
  failProvisioning(input: { orgId: string; projectId: string }): Promise<unknown>;
}

export type Recovered =
  | { resource: 'reviewExecution'; id: string }
  | { resource: 'job'; id: string }
  | { resource: 'project'; id: string }
  | { resource: null; reason: string };

/**
 * Input: the execution's end status and its input (the JSON it was started with).
 * Output: the resource that was failed, or why none was.
 * Steps: recognise the machine by its input; fail the resource through the machine's own failure step.
 */
export async function recoverEndedExecution(
  ports: RecoveryPorts,
  execution: { status: EndedStatus; input: string | null },
): Promise<Recovered> {
  let input: unknown;
  try {
    input = JSON.parse(execution.input ?? '');
  } catch {
    return { resource: null, reason: 'The execution input is missing or not JSON.' };
  }
  // A Distributed Map's child execution works for one file or one page batch (its input is a Map item);
  // its failure is its parent's to catch, and the parent's own end is reported apart.
  if (MapItemInput.safeParse(input).success) {
    return { resource: null, reason: 'The execution is a Map child execution: its parent handles it.' };
  }
  const review = ReviewInput.safeParse(input);
  if (review.success) {
    // A timeout tells the client so (`review_execution_timed_out`); anything else is a failed answer.
    const error =
      execution.status === 'TIMED_OUT'
        ? { Error: 'States.Timeout', Cause: 'The execution timed out.' }
        : { Error: `Execution${execution.status}`, Cause: `The execution ended ${execution.status}.` };
    await ports.failReviewExecution({ ...review.data, error });
    return { resource: 'reviewExecution', id: review.data.executionId };
  }
  const job = JobInput.safeParse(input);
  if (job.success) {
    await ports.failJob(job.data);
    return { resource: 'job', id: job.data.jobId };
  }
  const project = ProjectInput.safeParse(input);
  if (project.success) {
    await ports.failProvisioning(project.data);
    return { resource: 'project', id: project.data.projectId };
  }
  return { resource: null, reason: 'The execution input names no job, review execution or project.' };
}
