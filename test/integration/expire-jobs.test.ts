import { describe, expect, it } from 'vitest';
import type { OwnedJob } from '../../functions/core/jobs/model.ts';
import { expireJobs } from '../../functions/core/pipeline/expire-jobs.ts';
import { jobStore } from '../../functions/shared/wiring/adapters.ts';
import { pipelineWiring } from '../../functions/shared/wiring/pipeline.ts';
import { specificationPdf } from '../fixtures/pdfs.ts';
import { api, createOrg, createProject, waitForProject } from './helpers.ts';
import { preflightingJob } from './job-fixtures.ts';

const DAY = 86_400_000;

/** The scheduled sweep of jobs whose upload window ended while they waited for uploads. */
describe('the job expiry sweep', () => {
  it('fails jobs still waiting for uploads after their window, once, and leaves jobs that moved on', async () => {
    // Prepare: one job registered and never completed, one never registered, one already preflighting.
    const org = await createOrg(10_000);
    const projectId = (await createProject(org.apiKey, 'Expiry')).body.project.id as string;
    await waitForProject(org.apiKey, projectId);
    const newJob = async () =>
      (await api(`/api/open/v1/projects/${projectId}/jobs`, { method: 'POST', key: org.apiKey, body: {} }))
        .body.job.id as string;
    const uploading = await newJob();
    const registered = await api(`/api/open/v1/jobs/${uploading}/uploads`, {
      method: 'POST',
      key: org.apiKey,
      body: {
        files: [
          { fileName: 'a.pdf', contentType: 'application/pdf', fileSize: 1000, sha256: 'a'.repeat(64) },
        ],
      },
    });
    const waiting = await newJob();
    const moving = await preflightingJob({ 'spec.pdf': { bytes: await specificationPdf() } });
    const deps = pipelineWiring();

    // Act
    const before = await expireJobs(deps, { now: new Date(), limit: 1000 });
    const after = await expireJobs(deps, { now: new Date(Date.now() + 8 * DAY), limit: 1000 });
    const again = await expireJobs(deps, { now: new Date(Date.now() + 8 * DAY), limit: 1000 });

    // Assess
    expect(registered.status).toBe(200);
    expect(before.expired).not.toContain(uploading);
    expect(after.expired).toEqual(expect.arrayContaining([uploading, waiting]));
    expect(after.expired).not.toContain(moving.jobId);
    expect(again.expired).toEqual([]);
    const job = (await jobStore().get(org.orgId, uploading)) as OwnedJob;
    expect(job).toMatchObject({ status: 'failed', error: { code: 'job_expired' }, creditsReserved: 0 });
    expect((await jobStore().allFiles(job)).map((file) => file.status)).toEqual(['cancelled']);
    const shown = await api(`/api/open/v1/jobs/${uploading}`, { key: org.apiKey });
    expect(shown.body.job).toMatchObject({ status: 'failed', error: { code: 'job_expired' } });
    expect(((await jobStore().get(moving.org.orgId, moving.jobId)) as OwnedJob).status).toBe('preflighting');
  });
});
