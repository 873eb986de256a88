import { describe, expect, it, vi } from 'vitest';
import type { JobStore } from '../../functions/core/jobs/ports.ts';
import { registerUploads } from '../../functions/core/jobs/uploads.ts';
import { jobStore, uploadStorage, uploadTokens } from '../../functions/shared/wiring/adapters.ts';
import { largePdf, sha256Hex } from '../fixtures/pdfs.ts';
import { api, createOrgWithJob } from './helpers.ts';

const MIB = 1024 * 1024;

describe('registration races', () => {
  it('answers what a retry would (400), and leaves no multipart session behind', async () => {
    // Prepare: a job, and a job store whose addFiles lets a concurrent registration fill the job first.
    const { org, jobId } = await createOrgWithJob('Race');
    const file = (fileName: string, fileSize: number) => ({
      fileName,
      contentType: 'application/pdf',
      fileSize,
      sha256: fileName
        .padEnd(64, '0')
        .replace(/[^0-9a-f]/g, 'a')
        .slice(0, 64),
    });
    const real = jobStore();
    let concurrent: Awaited<ReturnType<typeof api>> | undefined;
    const racing: JobStore = Object.assign(Object.create(real) as JobStore, {
      addFiles: async (...args: Parameters<JobStore['addFiles']>) => {
        concurrent = await api(`/api/open/v1/jobs/${jobId}/uploads`, {
          method: 'POST',
          key: org.apiKey,
          // Ten files just under the 1 GiB a file may have: the job's 10 GB are nearly full.
          body: { files: Array.from({ length: 10 }, (_, index) => file(`first-${index}.pdf`, 999_500_000)) },
        });
        return real.addFiles(...args);
      },
    });
    const storage = uploadStorage();
    const aborted = vi.spyOn(storage, 'abortMultipart');

    // Act
    const refused = registerUploads(
      { jobs: racing, documents: real, storage, tokens: await uploadTokens() },
      {
        orgId: org.orgId,
        jobId,
        registration: { files: [file('second.pdf', 7 * MIB)] },
        settings: { multipartThresholdBytes: 6 * MIB, partSizeBytes: 5 * MIB, urlTtlSeconds: 3600 },
      },
    );

    // Assess
    await expect(refused).rejects.toMatchObject({ code: 'job_declared_bytes_exceeded' });
    expect(concurrent?.status).toBe(200);
    expect(aborted).toHaveBeenCalledTimes(1);
    await expect(aborted.mock.results[0]?.value).resolves.toBeUndefined();
  });

  it('lets storage refuse a multipart completion with a made-up ETag, as S3 does', async () => {
    // Prepare
    const { org, jobId } = await createOrgWithJob('ETags');
    const bytes = await largePdf(7 * MIB);
    const registered = await api(`/api/open/v1/jobs/${jobId}/uploads`, {
      method: 'POST',
      key: org.apiKey,
      body: {
        files: [
          {
            fileName: 'big.pdf',
            contentType: 'application/pdf',
            fileSize: bytes.length,
            sha256: sha256Hex(bytes),
          },
        ],
      },
    });
    const upload = registered.body.uploads[0];
    const sent = [];
    for (const part of upload.parts) {
      const response = await fetch(part.uploadUrl, {
        method: 'PUT',
        headers: part.uploadHeaders,
        body: bytes.subarray(part.startByte, part.endByteExclusive),
      });
      sent.push({ partNumber: part.partNumber, etag: response.headers.get('etag') ?? '' });
    }

    // Act
    const madeUp = sent.map((part, index) =>
      index === 0 ? { ...part, etag: '"0123456789abcdef0123456789abcdef"' } : part,
    );
    const completed = await api(`/api/open/v1/jobs/${jobId}/uploads/complete`, {
      method: 'POST',
      key: org.apiKey,
      body: {
        multipartUploads: [
          {
            documentId: upload.documentId,
            multipartUploadId: upload.multipartUploadId,
            uploadToken: upload.uploadToken,
            parts: madeUp,
          },
        ],
      },
    });

    // Assess
    expect(sent.every((part) => part.etag.length > 2)).toBe(true);
    expect(completed.status).toBe(200);
    expect(completed.body.files[0]).toMatchObject({
      status: 'error',
      error: { code: 'multipart_incomplete' },
    });
    expect(completed.body.files[0].error.message).toContain('InvalidPart');
  });

  it('refuses at registration a file bigger than the engine reads (1 GiB), and says the limit in the job', async () => {
    // Prepare
    const { org, jobId } = await createOrgWithJob('Too big');
    const declare = (fileSize: number) =>
      api(`/api/open/v1/jobs/${jobId}/uploads`, {
        method: 'POST',
        key: org.apiKey,
        body: {
          files: [{ fileName: 'set.pdf', contentType: 'application/pdf', fileSize, sha256: 'b'.repeat(64) }],
        },
      });
    // Act
    const tooBig = await declare(1024 ** 3 + 1);
    const job = await api(`/api/open/v1/jobs/${jobId}`, { key: org.apiKey });
    const fits = await declare(1024 ** 3);
    // Assess
    expect(tooBig.status).toBe(400);
    expect(JSON.stringify(tooBig.body.error)).toContain('at most 1 GiB');
    expect(job.body.job.limits.maxFileBytes).toBe(1024 ** 3);
    expect(job.body.job.files).toEqual([]);
    expect(fits.status).toBe(200);
  });
});
