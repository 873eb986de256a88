/** Job statuses (no imports: both the job and the project models read them). */
export const JOB_STATUSES = [
  'provisioning',
  'awaiting_uploads',
  'uploading',
  'preflighting',
  'processing',
  'completed',
  'failed',
] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

/** The five active statuses of the spec: a job in one of them is still going. */
export const ACTIVE_JOB_STATUSES: readonly JobStatus[] = [
  'provisioning',
  'awaiting_uploads',
  'uploading',
  'preflighting',
  'processing',
];

/** A job in one of these still accepts uploads, until its `expiresAt`. */
export const OPEN_JOB_STATUSES: readonly JobStatus[] = ['awaiting_uploads', 'uploading'];

export function isActiveJobStatus(status: string): boolean {
  return (ACTIVE_JOB_STATUSES as readonly string[]).includes(status);
}
