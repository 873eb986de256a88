import type { ErrorInfo } from '../errors.ts';
import { newId } from '../ids.ts';
import type { ProjectSettings } from './model.ts';
import type { ProjectIndexStore, ProjectStore } from './ports.ts';

/**
 * Provisioning steps, run by the `provision-project` state machine.
 * Input: { orgId, projectId }. Each step is idempotent, so a retried task changes nothing twice.
 */
export const DEFAULT_PROJECT_SETTINGS: ProjectSettings = {
  ocr: 'auto',
  defaultClassification: 'auto',
  schemaVersion: 1,
};

export async function setUpProjectResources(
  deps: { projects: ProjectStore; index: ProjectIndexStore },
  input: { orgId: string; projectId: string },
): Promise<void> {
  const project = await deps.projects.get(input.orgId, input.projectId);
  if (!project) throw new Error(`Project ${input.projectId} does not exist`);
  if (project.status !== 'provisioning') return;
  const indexLocation = await deps.index.createIndex(input.orgId, input.projectId);
  await deps.projects.saveProvisionedResources(input.orgId, input.projectId, {
    settings: DEFAULT_PROJECT_SETTINGS,
    indexLocation,
  });
}

export async function markProjectReady(
  deps: { projects: ProjectStore },
  input: { orgId: string; projectId: string },
): Promise<{ ready: boolean }> {
  return { ready: await deps.projects.markReady(input.orgId, input.projectId) };
}

/** The state machine's `Catch` hands over `{ Error, Cause }`; only a generic message is kept public. */
export async function failProvisioning(
  deps: { projects: ProjectStore },
  input: { orgId: string; projectId: string; error?: { Error?: string; Cause?: string } },
): Promise<{ refunded: boolean }> {
  const error: ErrorInfo = {
    code: 'provisioning_failed',
    message: 'Project provisioning failed. The creation charge was refunded; create the project again.',
  };
  return {
    refunded: await deps.projects.markFailedAndRefund(input.orgId, input.projectId, error, newId('led')),
  };
}
