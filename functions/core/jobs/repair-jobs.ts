import { type JobKind, jobKind, type OwnedJob } from './model.ts';
import type { JobStore } from './ports.ts';

/** Starts the state machine of a free repair job over its files (a region normalization, an index reconcile). */
export interface RepairJobStarter {
  start(orgId: string, jobId: string, fileIds: string[]): Promise<void>;
}

/**
 * The project's repair job of `kind` still running, started again over its files (a start that finds its
 * machine running is a no-op, so a lost start is recovered by calling again), or null when none runs: a second
 * request joins the job under way instead of making another.
 */
export async function resumeRepairJob(
  deps: { jobs: Pick<JobStore, 'list' | 'allFiles'>; starter: RepairJobStarter },
  orgId: string,
  projectId: string,
  kind: JobKind,
): Promise<OwnedJob | null> {
  const active = await deps.jobs.list(orgId, { projectId, activeOnly: true }, { limit: 100, position: null });
  const running = active.items.find((job) => jobKind(job) === kind);
  if (!running) return null;
  const files = await deps.jobs.allFiles(running);
  await deps.starter.start(
    orgId,
    running.id,
    files.map((file) => file.id),
  );
  return running;
}
