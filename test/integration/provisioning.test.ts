import { describe, expect, it } from 'vitest';
import { organizationStore, projectStore } from '../../functions/shared/wiring/adapters.ts';
import { LocalStepFunctions, localStateMachineArn } from '../../local/step-functions.ts';
import { api, createOrg, provisioningRecord } from './helpers.ts';

describe('provisioning state machine (stepfunctions/provision-project.asl.json)', () => {
  it('marks the project failed and refunds the charge, once, when a step keeps failing', async () => {
    // Prepare: a project charged as the create endpoint does, and the real ASL with its
    // first task failing every time (the other tasks are the real handlers).
    const org = await createOrg(1_000);
    const record = provisioningRecord(org.orgId, 'Doomed');
    const outcome = await projectStore().createWithCharge({
      orgId: org.orgId,
      project: record,
      price: 100,
      ledgerEntryId: record.charge.ledgerEntryId,
    });
    expect(outcome).toEqual({ kind: 'created', availableCredits: 900 });
    let attempts = 0;
    const stepFunctions = new LocalStepFunctions({
      SetUpProjectResourcesFunctionArn: async () => {
        attempts++;
        throw new Error('index bucket unavailable');
      },
    });

    // Act
    const execution = stepFunctions.startExecution(
      localStateMachineArn('provision-project'),
      record.id,
      JSON.stringify({ orgId: org.orgId, projectId: record.id }),
    );
    await execution.done;

    // Assess
    expect(attempts).toBe(4);
    expect(execution.status).toBe('FAILED');
    expect(execution.error).toBe('ProvisioningFailed');
    const project = await api(`/api/open/v1/projects/${record.id}`, { key: org.apiKey });
    expect(project.body.project).toMatchObject({
      status: 'failed',
      runtime: { status: 'failed' },
      error: { code: 'provisioning_failed' },
    });
    expect(JSON.stringify(project.body)).not.toContain('index bucket unavailable');
    const overview = await api(`/api/open/v1/projects/${record.id}/overview`, { key: org.apiKey });
    expect(overview.body.overview).toMatchObject({ status: 'error', nextAction: null });
    expect(await organizationStore().balance(org.orgId)).toBe(1_000);
    const ledger = await organizationStore().ledger(org.orgId);
    expect(
      ledger.filter((entry) => entry.projectId === record.id).map((entry) => [entry.kind, entry.amount]),
    ).toEqual(
      expect.arrayContaining([
        ['project_creation', -100],
        ['project_creation_refund', 100],
      ]),
    );

    // A second failure report (a retried task) refunds nothing more.
    const { failProvisioning } = await import('../../functions/core/projects/provision-project.ts');
    expect(
      await failProvisioning({ projects: projectStore() }, { orgId: org.orgId, projectId: record.id }),
    ).toEqual({
      refunded: false,
    });
    expect(await organizationStore().balance(org.orgId)).toBe(1_000);
    // The name is free again.
    const again = await api('/api/open/v1/projects', {
      method: 'POST',
      key: org.apiKey,
      body: { name: 'Doomed' },
    });
    expect(again.status).toBe(202);
  }, 60_000);
});
