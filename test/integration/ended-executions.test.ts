import { describe, expect, it } from 'vitest';
import type { OwnedJob } from '../../functions/core/jobs/model.ts';
import { jobStore } from '../../functions/shared/wiring/adapters.ts';
import { LocalStepFunctions, localStateMachineArn } from '../../local/step-functions.ts';
import { specificationPdf } from '../fixtures/pdfs.ts';
import { credits, preflightingJob } from './job-fixtures.ts';

/**
 * Executions that end outside their catchers (stopped, timed out, failed by the service): the local
 * runner hands them to the same target as the EventBridge rule on AWS, which fails what they worked for.
 */
describe('executions that end outside their catchers', () => {
  it('a stopped job execution fails the job and releases its reserved credits, once', async () => {
    // Prepare: the real preflight reserves the job's credits, then extraction never returns.
    const { org, jobId } = await preflightingJob({ 'spec.pdf': { bytes: await specificationPdf() } });
    const before = await credits(org.orgId);
    let extracting: () => void = () => undefined;
    const extractionStarted = new Promise<void>((resolve) => {
      extracting = resolve;
    });
    const stepFunctions = new LocalStepFunctions({
      ExtractPageBatchFunctionArn: () => {
        extracting();
        return new Promise(() => undefined);
      },
    });
    const execution = stepFunctions.startExecution(
      localStateMachineArn('process-job'),
      jobId,
      JSON.stringify({ orgId: org.orgId, jobId }),
    );
    await extractionStarted;
    const reserved = (await jobStore().get(org.orgId, jobId)) as OwnedJob;

    // Act
    stepFunctions.stopExecution(execution.executionArn);
    await execution.done;
    const { handler } = await import('../../functions/handlers/events/execution-ended.ts');
    const again = await handler({
      'detail-type': 'Step Functions Execution Status Change',
      detail: {
        executionArn: execution.executionArn,
        stateMachineArn: execution.stateMachineArn,
        status: 'ABORTED',
        input: execution.input,
      },
    });

    // Assess
    expect(reserved).toMatchObject({ status: 'processing', creditsReserved: 2 });
    expect(await credits(org.orgId)).toBe(before);
    expect(execution.status).toBe('ABORTED');
    const job = (await jobStore().get(org.orgId, jobId)) as OwnedJob;
    expect(job).toMatchObject({
      status: 'failed',
      creditsReserved: 0,
      creditsDebited: 0,
      error: { code: 'processing_failed' },
    });
    expect((await jobStore().allFiles(job)).map((file) => file.status)).toEqual(['error']);
    expect(again).toEqual({ resource: 'job', id: jobId });
    await stepFunctions.close();
  });
});
