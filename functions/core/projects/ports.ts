import type { ErrorInfo } from '../errors.ts';
import type { Page } from '../pagination/page.ts';
import type { LatestJob, OwnedProject, ProjectRecord, ProjectSettings } from './model.ts';

export interface CreateProjectCommand {
  orgId: string;
  project: ProjectRecord;
  price: number;
  ledgerEntryId: string;
}

export type CreateProjectOutcome =
  | { kind: 'created'; availableCredits: number }
  | { kind: 'name_conflict' }
  | { kind: 'insufficient_credits'; availableCredits: number };

export interface ProjectStore {
  /** Writes the project, its name guard, the debit and the ledger entry in ONE transaction. */
  createWithCharge(command: CreateProjectCommand): Promise<CreateProjectOutcome>;
  /** The project, read under the organization's own key (null for another organization's id). */
  get(orgId: string, projectId: string): Promise<OwnedProject | null>;
  list(orgId: string, options: { limit: number; position: unknown | null }): Promise<Page<ProjectRecord>>;
  count(orgId: string): Promise<number>;
  saveProvisionedResources(
    orgId: string,
    projectId: string,
    resources: { settings: ProjectSettings; indexLocation: string },
  ): Promise<void>;
  /** provisioning -> ready; false when the project is not provisioning any more. */
  markReady(orgId: string, projectId: string): Promise<boolean>;
  /**
   * provisioning -> failed, with the refund of the creation charge and its ledger entry, in one
   * transaction; false (and no refund) when the project is not provisioning any more.
   */
  markFailedAndRefund(
    orgId: string,
    projectId: string,
    error: ErrorInfo,
    refundEntryId: string,
  ): Promise<boolean>;
}

export interface ProvisioningStarter {
  start(orgId: string, projectId: string): Promise<void>;
}

export interface ProjectIndexStore {
  /** Creates the project's (empty) source index and returns its location. Idempotent. */
  createIndex(orgId: string, projectId: string): Promise<string>;
}

/**
 * The project's latest job, as the overview shows it; `active` while the job holds the project busy:
 * still going with files registered (a job with none, `awaiting_uploads`, is a client's empty start,
 * often abandoned, and does not hold the project's status `processing`).
 */
export interface LatestJobSummary {
  job: LatestJob;
  active: boolean;
}

/** Implemented by the jobs side: the projects domain knows nothing of job statuses. */
export interface LatestJobLookup {
  latestJob(orgId: string, projectId: string): Promise<LatestJobSummary | null>;
}
