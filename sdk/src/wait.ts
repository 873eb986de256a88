import { PsaProvisioningError, PsaTimeoutError } from './errors.ts';
import { sleep } from './retry.ts';
import type { Job, Project } from './types.ts';

export interface WaitOptions<T> {
  /** Between two polls. */
  intervalMs?: number;
  /** Give up (PsaTimeoutError) after this long. */
  timeoutMs?: number;
  signal?: AbortSignal;
  /** Called with every polled state (progress bars, logs). */
  onPoll?: (state: T) => void;
}
export type WaitForProjectOptions = WaitOptions<Project>;
export type WaitForJobOptions = WaitOptions<Job>;

/** The contract's client rule: poll every 10 s, a provisioning failure after 5 minutes. */
export const PROJECT_POLL = { intervalMs: 10_000, timeoutMs: 5 * 60_000 };
/** The contract is silent for jobs: every 5 s, for at most 2 hours (a job's pages are processed in minutes). */
export const JOB_POLL = { intervalMs: 5_000, timeoutMs: 2 * 3600_000 };

const JOB_TERMINAL = new Set(['completed', 'failed']);

async function poll<T>(
  read: () => Promise<T>,
  done: (state: T) => boolean,
  defaults: { intervalMs: number; timeoutMs: number },
  options: WaitOptions<T>,
  describe: (state: T) => string,
  failed?: (state: T) => Error | null,
): Promise<T> {
  const intervalMs = options.intervalMs ?? defaults.intervalMs;
  const deadline = Date.now() + (options.timeoutMs ?? defaults.timeoutMs);
  for (;;) {
    const state = await read();
    options.onPoll?.(state);
    if (done(state)) return state;
    const failure = failed?.(state);
    if (failure) throw failure;
    if (Date.now() + intervalMs > deadline) throw new PsaTimeoutError(describe(state));
    await sleep(intervalMs, options.signal);
  }
}

/**
 * Polls a project until it is `ready`: PsaProvisioningError when it ends `failed`, PsaTimeoutError (the
 * contract's provisioning failure) when it is still not ready after 5 minutes by default.
 */
export function waitForProject(
  read: () => Promise<Project>,
  options: WaitForProjectOptions = {},
): Promise<Project> {
  return poll(
    read,
    (project) => project.status === 'ready',
    PROJECT_POLL,
    options,
    (project) => `Project ${project.id} is still ${project.status}: treat it as a provisioning failure.`,
    (project) =>
      project.status === 'failed'
        ? new PsaProvisioningError(project.id, project.error?.message ?? 'Provisioning failed.')
        : null,
  );
}

/** Polls a job until it is `completed` or `failed` (returned either way: read `status` and `error`). */
export function waitForJob(read: () => Promise<Job>, options: WaitForJobOptions = {}): Promise<Job> {
  return poll(
    read,
    (job) => JOB_TERMINAL.has(job.status),
    JOB_POLL,
    options,
    (job) => `Job ${job.id} is still ${job.status} (${job.progress.percent} %).`,
  );
}
