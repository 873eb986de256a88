import { type JobRecord, resultPath } from '../jobs/model.ts';
import type { JobDeps } from './ports.ts';

/** Refreshes the project's totals and enqueues the job's webhook event (stable id: at-least-once). */
export async function publishOutcome(deps: JobDeps, job: JobRecord): Promise<void> {
  const totals = await deps.content.projectTotals(job.projectId);
  await deps.totals.saveTotals(job.orgId, job.projectId, totals);
  const event = job.status === 'completed' ? 'job.completed' : 'job.failed';
  await deps.webhooks.enqueue({
    orgId: job.orgId,
    event,
    payload: {
      eventId: `${job.id}.${event}`,
      jobId: job.id,
      projectId: job.projectId,
      status: job.status,
      completedAt: job.completedAt,
      pageCount: job.pageCount,
      successfulPageCount: job.successfulPageCount,
      failedPageCount: job.failedPageCount,
      error: job.error,
      resultUrl: resultPath(job.id),
    },
  });
}
