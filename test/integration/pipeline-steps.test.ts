import { describe, expect, it } from 'vitest';
import type { OwnedJob } from '../../functions/core/jobs/model.ts';
import { assembleFile } from '../../functions/core/pipeline/assemble-file.ts';
import { extractPageBatch } from '../../functions/core/pipeline/extract-page-batch.ts';
import { failFile, failJob } from '../../functions/core/pipeline/fail-job.ts';
import { finalizeJob } from '../../functions/core/pipeline/finalize-job.ts';
import { preflightJob } from '../../functions/core/pipeline/preflight-job.ts';
import { jobStore } from '../../functions/shared/container.ts';
import { pipelineDeps } from '../../functions/shared/engine-container.ts';
import { pipelineSettings } from '../../functions/shared/pipeline-container.ts';
import { specificationPdf } from '../fixtures/pdfs.ts';
import { api } from './helpers.ts';
import { credits, preflightingJob } from './job-fixtures.ts';

/**
 * Each pipeline step on its own, against the real table, buckets and engine, with the job and its
 * files written as registration and completion leave them (the state machine is not started).
 * Every step is run twice: a retried task must change nothing.
 */
describe('pipeline steps', () => {
  it('preflight: plans the good file, fails the others alone, reserves once', async () => {
    // Prepare
    const spec = await specificationPdf();
    const { org, jobId, files } = await preflightingJob({
      'spec.pdf': { bytes: spec },
      'wrong-digest.pdf': { bytes: spec, declared: new Uint8Array([1, 2, 3]) },
      'not-a-pdf.pdf': { bytes: new TextEncoder().encode('plain text, not a PDF') },
    });
    const deps = await pipelineDeps();
    const before = await credits(org.orgId);

    // Act
    const plan = await preflightJob(deps, pipelineSettings(), { orgId: org.orgId, jobId });
    const retried = await preflightJob(deps, pipelineSettings(), { orgId: org.orgId, jobId });

    // Assess
    const job = (await jobStore().get(org.orgId, jobId)) as OwnedJob;
    const stored = Object.fromEntries((await jobStore().allFiles(job)).map((file) => [file.fileName, file]));
    expect(plan).toEqual({
      orgId: org.orgId,
      jobId,
      proceed: true,
      files: [
        {
          fileId: files['spec.pdf']?.id,
          pageCount: 2,
          batches: [
            { from: 1, to: 1 },
            { from: 2, to: 2 },
          ],
        },
      ],
    });
    expect(retried).toEqual(plan);
    expect(stored['wrong-digest.pdf']).toMatchObject({
      status: 'error',
      error: { code: 'checksum_mismatch' },
    });
    expect(stored['not-a-pdf.pdf']).toMatchObject({
      status: 'error',
      error: { code: 'unsupported_file_type' },
    });
    expect(job).toMatchObject({ status: 'processing', pageCount: 2, creditsReserved: 2 });
    expect(await credits(org.orgId)).toBe(before - 2);
  });

  it('extract, assemble and finalize: each retried step rewrites nothing and charges once', async () => {
    // Prepare
    const { org, projectId, jobId, files } = await preflightingJob({
      'spec.pdf': { bytes: await specificationPdf() },
    });
    const deps = await pipelineDeps();
    const settings = pipelineSettings();
    const input = { orgId: org.orgId, jobId };
    const fileId = files['spec.pdf']?.id ?? '';
    await preflightJob(deps, settings, input);
    const before = await credits(org.orgId);

    // Act
    const batches = [];
    for (const from of [1, 2, 1])
      batches.push(await extractPageBatch(deps, { ...input, fileId, from, to: from }));
    const assembled = await assembleFile(deps, settings, { ...input, fileId });
    const assembledAgain = await assembleFile(deps, settings, { ...input, fileId });
    const finalized = await finalizeJob(deps, settings, input);
    const finalizedAgain = await finalizeJob(deps, settings, input);

    // Assess
    const job = (await jobStore().get(org.orgId, jobId)) as OwnedJob;
    expect(batches).toEqual([
      { pages: 1, failed: false },
      { pages: 1, failed: false },
      { pages: 1, failed: false },
    ]);
    expect(job.progress.processedPages).toBe(2);
    expect(assembled).toEqual({ status: 'ready', successfulPages: 2 });
    expect(assembledAgain).toEqual(assembled);
    expect(finalized).toEqual({ status: 'completed' });
    expect(finalizedAgain).toEqual({ status: 'completed' });
    expect(job).toMatchObject({ status: 'completed', creditsDebited: 2, creditsReserved: 0 });
    expect(await credits(org.orgId)).toBe(before);
    const specs = await api(`/api/open/v1/projects/${projectId}/specifications`, { key: org.apiKey });
    expect(specs.body.total).toBe(1);
    const result = await api(`/api/open/v1/jobs/${jobId}/result`, { key: org.apiKey });
    expect(result.body.result).toMatchObject({ status: 'completed', successfulPageCount: 2 });
  });

  it('fail file and fail job: the file ends in error, the reservation is released, once', async () => {
    // Prepare
    const spec = await specificationPdf();
    const { org, jobId, files } = await preflightingJob({
      'a.pdf': { bytes: spec },
      'b.pdf': { bytes: spec },
    });
    const deps = await pipelineDeps();
    const input = { orgId: org.orgId, jobId };
    const before = await credits(org.orgId);
    await preflightJob(deps, pipelineSettings(), input);

    // Act
    const failedFile = await failFile(deps, { ...input, fileId: files['a.pdf']?.id ?? '' });
    const failedFileAgain = await failFile(deps, { ...input, fileId: files['a.pdf']?.id ?? '' });
    const failed = await failJob(deps, input);
    const failedAgain = await failJob(deps, input);

    // Assess
    const job = (await jobStore().get(org.orgId, jobId)) as OwnedJob;
    const stored = Object.fromEntries((await jobStore().allFiles(job)).map((file) => [file.fileName, file]));
    expect(failedFile).toEqual({ status: 'error' });
    expect(failedFileAgain).toEqual({ status: 'error' });
    expect(failed).toEqual({ status: 'failed' });
    expect(failedAgain).toEqual({ status: 'failed' });
    expect(stored['a.pdf']?.error?.code).toBe('extraction_failed');
    expect(stored['b.pdf']).toMatchObject({ status: 'error', error: { code: 'processing_failed' } });
    expect(job).toMatchObject({ status: 'failed', creditsReserved: 0, creditsDebited: 0 });
    expect(await credits(org.orgId)).toBe(before);
  });
});
