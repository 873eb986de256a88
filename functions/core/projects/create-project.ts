import { ConflictError, InsufficientCreditsError, ServiceUnavailableError } from '../errors.ts';
import { newId } from '../ids.ts';
import { EMPTY_COUNTS, type Project, type ProjectRecord, toPublicProject } from './model.ts';
import type { ProjectStore, ProvisioningStarter } from './ports.ts';

/**
 * Create a project.
 * Input: organization, name (already validated), price in credits.
 * Output: the project (status `provisioning`) and the billing summary.
 * Steps: one transaction writes project + name guard + debit + ledger entry; then the provisioning
 * state machine starts. If it cannot start, the project fails at once and the charge is refunded.
 */
export async function createProject(
  deps: { projects: ProjectStore; provisioning: ProvisioningStarter },
  input: { orgId: string; name: string; price: number; now?: Date },
): Promise<{
  project: Project;
  billing: { availableCredits: number; creditsCharged: number; requiredCredits: number };
}> {
  const record = newProjectRecord(input);
  const { ledgerEntryId } = record.charge;

  const outcome = await deps.projects.createWithCharge({
    orgId: input.orgId,
    project: record,
    price: input.price,
    ledgerEntryId,
  });
  if (outcome.kind === 'name_conflict') {
    throw new ConflictError(
      'project_name_conflict',
      'A project with this name already exists in the organization.',
    );
  }
  if (outcome.kind === 'insufficient_credits') {
    throw new InsufficientCreditsError(input.price, outcome.availableCredits);
  }

  try {
    await deps.provisioning.start(input.orgId, record.id);
  } catch (error) {
    await deps.projects.markFailedAndRefund(
      input.orgId,
      record.id,
      { code: 'provisioning_not_started', message: 'Provisioning could not be started.' },
      newId('led'),
    );
    throw new ServiceUnavailableError(
      'Provisioning could not be started; the charge was refunded. Retry later.',
      error,
    );
  }

  return {
    project: toPublicProject(record),
    billing: {
      availableCredits: outcome.availableCredits,
      creditsCharged: input.price,
      requiredCredits: input.price,
    },
  };
}

/** A new project as it is first stored: `provisioning`, charged `price` under a new ledger entry. */
export function newProjectRecord(input: {
  orgId: string;
  name: string;
  price: number;
  now?: Date;
}): ProjectRecord {
  const now = (input.now ?? new Date()).toISOString();
  return {
    orgId: input.orgId,
    id: newId('prj'),
    name: input.name,
    status: 'provisioning',
    runtimeStatus: 'starting',
    error: null,
    counts: { ...EMPTY_COUNTS },
    disciplineCounts: [],
    indexedSources: 0,
    searchableSources: 0,
    settings: null,
    indexLocation: null,
    charge: { ledgerEntryId: newId('led'), credits: input.price },
    createdAt: now,
    updatedAt: now,
  };
}
