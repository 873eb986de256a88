import { describe, expect, it } from 'vitest';
import {
  type RecoveryPorts,
  recoverEndedExecution,
} from '../../../functions/core/recovery/ended-executions.ts';

/** Records what each failure step was asked to do (the steps themselves are tested against the local stack). */
function recordingPorts() {
  const calls: { step: string; input: unknown }[] = [];
  const ports: RecoveryPorts = {
    failJob: async (input) => calls.push({ step: 'failJob', input }),
    failReviewExecution: async (input) => calls.push({ step: 'failReviewExecution', input }),
    failProvisioning: async (input) => calls.push({ step: 'failProvisioning', input }),
  };
  return { ports, calls };
}

describe('recovering executions that ended outside their catchers', () => {
  it('fails what the execution worked for, recognised by the input it was started with', async () => {
    // Prepare
    const { ports, calls } = recordingPorts();
    // Act
    const review = await recoverEndedExecution(ports, {
      status: 'TIMED_OUT',
      input: JSON.stringify({ orgId: 'org_1', executionId: 'exe_1' }),
    });
    const job = await recoverEndedExecution(ports, {
      status: 'ABORTED',
      input: JSON.stringify({ orgId: 'org_1', jobId: 'job_1', fileIds: ['fil_1'] }),
    });
    const project = await recoverEndedExecution(ports, {
      status: 'FAILED',
      input: JSON.stringify({ orgId: 'org_1', projectId: 'prj_1' }),
    });
    // Assess
    expect([review, job, project]).toEqual([
      { resource: 'reviewExecution', id: 'exe_1' },
      { resource: 'job', id: 'job_1' },
      { resource: 'project', id: 'prj_1' },
    ]);
    expect(calls).toEqual([
      {
        step: 'failReviewExecution',
        input: {
          orgId: 'org_1',
          executionId: 'exe_1',
          error: { Error: 'States.Timeout', Cause: 'The execution timed out.' },
        },
      },
      { step: 'failJob', input: { orgId: 'org_1', jobId: 'job_1' } },
      { step: 'failProvisioning', input: { orgId: 'org_1', projectId: 'prj_1' } },
    ]);
  });

  it('fails nothing when the input is missing, not JSON, names nothing it knows or is a Map item', async () => {
    // Prepare
    const { ports, calls } = recordingPorts();
    // Act
    const outcomes = await Promise.all(
      [
        null,
        '{not json',
        JSON.stringify({ orgId: 'org_1' }),
        JSON.stringify({ jobId: 'job_1' }),
        // Child executions of the job machine's Distributed Maps: one file, one file's batches.
        JSON.stringify({ orgId: 'org_1', jobId: 'job_1', fileId: 'fil_1' }),
        JSON.stringify({ orgId: 'org_1', jobId: 'job_1', file: { fileId: 'fil_1', batches: [] } }),
      ].map((input) => recoverEndedExecution(ports, { status: 'FAILED', input })),
    );
    // Assess
    expect(outcomes.map((outcome) => outcome.resource)).toEqual([null, null, null, null, null, null]);
    expect(calls).toEqual([]);
  });
});
