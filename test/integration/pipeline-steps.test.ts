import { describe, expect, it } from 'vitest';
import type { OwnedJob } from '../../functions/core/jobs/model.ts';
import { assembleFile } from '../../functions/core/pipeline/assemble-file.ts';
import { BATCH_TIME_MARGIN_MS, extractPageBatch } from '../../functions/core/pipeline/extract-page-batch.ts';
import { failFile, failJob } from '../../functions/core/pipeline/fail-job.ts';
import { finalizeJob } from '../../functions/core/pipeline/finalize-job.ts';
import { inspectJobFile, listFilesToInspect } from '../../functions/core/pipeline/inspect-file.ts';
import type { StoredBatch } from '../../functions/core/pipeline/model.ts';
import type { PipelineDeps } from '../../functions/core/pipeline/ports.ts';
import { preflightJob } from '../../functions/core/pipeline/preflight-job.ts';
import { objectKeys } from '../../functions/core/storage-keys.ts';
import { jobStore } from '../../functions/shared/wiring/adapters.ts';
import { engineWiring } from '../../functions/shared/wiring/engine.ts';
import { pipelineSettings } from '../../functions/shared/wiring/pipeline.ts';
import { specificationPdf } from '../fixtures/pdfs.ts';
import { api } from './helpers.ts';
import { credits, preflightingJob } from './job-fixtures.ts';

/** What the state machine runs before extraction: every file's inspection, then the reservation. */
async function preflight(deps: PipelineDeps, input: { orgId: string; jobId: string }) {
  for (const fileId of (await listFilesToInspect(deps, input)).fileIds)
    await inspectJobFile(deps, pipelineSettings(), { ...input, fileId });
  return preflightJob(deps, pipelineSettings(), input);
}

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
    const deps = engineWiring();
    const before = await credits(org.orgId);

    // Act: each file inspected in its own task (twice: a retried task), then the reservation.
    const input = { orgId: org.orgId, jobId };
    const listed = await listFilesToInspect(deps, input);
    const inspected = [];
    for (const fileId of [...listed.fileIds, ...listed.fileIds])
      inspected.push((await inspectJobFile(deps, pipelineSettings(), { ...input, fileId })).status);
    const plan = await preflightJob(deps, pipelineSettings(), input);
    const retried = await preflightJob(deps, pipelineSettings(), input);
    const listedAfter = await listFilesToInspect(deps, input);

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
    expect(listed.fileIds.sort()).toEqual(
      Object.values(files)
        .map((file) => file?.id)
        .sort(),
    );
    expect(inspected.sort()).toEqual(['error', 'error', 'error', 'error', 'processing', 'processing']);
    expect(listedAfter.fileIds).toEqual([]);
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
    const deps = engineWiring();
    const settings = pipelineSettings();
    const input = { orgId: org.orgId, jobId };
    const fileId = files['spec.pdf']?.id ?? '';
    await preflight(deps, input);
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
      { pages: 1, failed: false, done: true },
      { pages: 1, failed: false, done: true },
      { pages: 1, failed: false, done: true },
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

  it('assemble: a batch whose task gave up (throttled past every retry) leaves its pages named as failed, not missing', async () => {
    // Prepare: two batches of one page each; the state machine gave up on the second one's task
    // (BatchFailed), so it stored nothing.
    const { org, jobId, files } = await preflightingJob({ 'spec.pdf': { bytes: await specificationPdf() } });
    const deps = engineWiring();
    const settings = pipelineSettings();
    const input = { orgId: org.orgId, jobId };
    const fileId = files['spec.pdf']?.id ?? '';
    await preflight(deps, input);
    await extractPageBatch(deps, { ...input, fileId, from: 1, to: 1 });

    // Act
    const assembled = await assembleFile(deps, settings, { ...input, fileId });
    await finalizeJob(deps, settings, input);

    // Assess
    const job = (await jobStore().get(org.orgId, jobId)) as OwnedJob;
    const [file] = await jobStore().allFiles(job);
    expect(assembled).toEqual({ status: 'ready', successfulPages: 1 });
    expect(file).toMatchObject({
      status: 'ready',
      successfulPageCount: 1,
      error: {
        code: 'batch_missing',
        message: 'Page 2 could not be processed; process the file again in a new job.',
      },
    });
    expect(job).toMatchObject({ successfulPageCount: 1, failedPageCount: 1, creditsDebited: 1 });
    const listed = await api(`/api/open/v1/jobs/${jobId}/files`, { key: org.apiKey });
    expect(listed.body.files[0]).toMatchObject({
      error: { code: 'batch_missing', message: expect.stringContaining('Page 2 ') },
    });
  });

  it('fail file and fail job: the file ends in error, the reservation is released, once', async () => {
    // Prepare
    const spec = await specificationPdf();
    const { org, jobId, files } = await preflightingJob({
      'a.pdf': { bytes: spec },
      'b.pdf': { bytes: spec },
    });
    const deps = engineWiring();
    const input = { orgId: org.orgId, jobId };
    const before = await credits(org.orgId);
    await preflight(deps, input);

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

  it('extract: a batch that runs short of time stores its pages and resumes in the next run, with the same result', async () => {
    // Prepare: a two-page file read as one batch, by a task with no time to spare.
    const { org, jobId, files } = await preflightingJob({ 'spec.pdf': { bytes: await specificationPdf() } });
    const deps = engineWiring();
    const input = { orgId: org.orgId, jobId, fileId: files['spec.pdf']?.id ?? '', from: 1, to: 2 };
    await preflight(deps, input);
    const noTimeLeft = () => BATCH_TIME_MARGIN_MS;

    // Act
    const first = await extractPageBatch(deps, input, noTimeLeft);
    const second = await extractPageBatch(deps, input, noTimeLeft);
    const third = await extractPageBatch(deps, input, noTimeLeft);

    // Assess: one page a run, then the whole batch stored once.
    expect([first, second, third]).toEqual([
      { pages: 1, failed: false, done: false },
      { pages: 2, failed: false, done: true },
      { pages: 2, failed: false, done: true },
    ]);
    const stored = await deps.artifacts.getJson<StoredBatch>(
      objectKeys.pageBatch(jobId, input.fileId, input.from),
    );
    expect(stored?.pages.map((page) => page.pageNumber)).toEqual([1, 2]);
    const job = (await jobStore().get(org.orgId, jobId)) as OwnedJob;
    expect(job.progress.processedPages).toBe(2);
  });
});
