import { beforeAll, describe, expect, it } from 'vitest';
import { drawingSheetPdf, largePdf, sha256Hex, specificationPdf } from '../fixtures/pdfs.ts';
import { api, createOrg, createProject, type TestOrg, waitForProject } from './helpers.ts';

interface Upload {
  documentId: string;
  uploadMode: 'direct_put' | 'multipart';
  uploadUrl?: string;
  uploadHeaders?: Record<string, string>;
  uploadToken: string;
  multipartUploadId?: string;
  parts?: {
    partNumber: number;
    startByte: number;
    endByteExclusive: number;
    uploadUrl: string;
    uploadHeaders: Record<string, string>;
  }[];
}

async function put(url: string, headers: Record<string, string>, body: Uint8Array) {
  const response = await fetch(url, { method: 'PUT', headers, body });
  return { status: response.status, etag: response.headers.get('etag'), text: await response.text() };
}

async function waitForJob(key: string, jobId: string, timeoutMs = 240_000) {
  const deadline = Date.now() + timeoutMs;
  const seenPercents: number[] = [];
  for (;;) {
    const reply = await api(`/api/open/v1/jobs/${jobId}`, { key });
    const job = reply.body.job;
    seenPercents.push(job.progress.percent);
    if (job.status === 'completed' || job.status === 'failed') return { job, seenPercents };
    if (Date.now() > deadline) throw new Error(`job still ${job.status} after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

describe('ingestion end to end', () => {
  let org: TestOrg;
  let projectId: string;
  let jobId: string;
  const files: Record<string, Uint8Array> = {};
  let uploads: Record<string, Upload> = {};
  let completed: Awaited<ReturnType<typeof waitForJob>>;

  beforeAll(async () => {
    org = await createOrg(10_000);
    projectId = (await createProject(org.apiKey, 'Ingestion')).body.project.id;
    await waitForProject(org.apiKey, projectId);
    files.spec = await specificationPdf();
    files.sheet = await drawingSheetPdf();
    files.big = await largePdf(11 * 1024 * 1024);
    files.bad = await specificationPdf();
  });

  it('refuses a job in a project that is not ready', async () => {
    const fresh = await createProject(org.apiKey, 'Not ready yet');
    const job = await api(`/api/open/v1/projects/${fresh.body.project.id}/jobs`, {
      method: 'POST',
      key: org.apiKey,
      body: {},
    });
    // On a very fast machine provisioning may already be over.
    if (job.status !== 201) {
      expect(job.status).toBe(409);
      expect(job.body.error.code).toBe('project_not_ready');
    }
  });

  it('creates a job and registers direct and multipart uploads', async () => {
    const created = await api(`/api/open/v1/projects/${projectId}/jobs`, {
      method: 'POST',
      key: org.apiKey,
      body: { displayName: 'Bid set', externalId: 'ext-1' },
    });
    expect(created.status).toBe(201);
    expect(created.body.job).toMatchObject({
      status: 'awaiting_uploads',
      projectId,
      project: { id: projectId, name: 'Ingestion' },
    });
    jobId = created.body.job.id;

    const declared = [
      {
        fileName: 'spec.pdf',
        contentType: 'application/pdf',
        fileSize: files.spec!.length,
        sha256: sha256Hex(files.spec!),
      },
      {
        fileName: 'sheet.pdf',
        contentType: 'application/pdf',
        fileSize: files.sheet!.length,
        sha256: sha256Hex(files.sheet!),
        classification: 'plans',
      },
      {
        fileName: 'big.pdf',
        contentType: 'application/pdf',
        fileSize: files.big!.length,
        sha256: sha256Hex(files.big!),
      },
      // Declares the digest of other bytes than it will send.
      {
        fileName: 'bad.pdf',
        contentType: 'application/pdf',
        fileSize: files.bad!.length,
        sha256: sha256Hex(files.sheet!),
      },
    ];
    const registered = await api(`/api/open/v1/jobs/${jobId}/uploads`, {
      method: 'POST',
      key: org.apiKey,
      body: { files: declared },
    });

    expect(registered.status).toBe(200);
    expect(registered.body.job.status).toBe('uploading');
    const [spec, sheet, big, bad] = registered.body.uploads as Upload[];
    uploads = { spec: spec!, sheet: sheet!, big: big!, bad: bad! };
    expect(spec?.uploadMode).toBe('direct_put');
    expect(spec?.uploadHeaders).toMatchObject({
      'content-type': 'application/pdf',
      'x-amz-checksum-sha256': expect.any(String),
    });
    expect(big?.uploadMode).toBe('multipart');
    expect(big?.parts?.length).toBe(3);
    expect(big?.parts?.[0]).toMatchObject({ partNumber: 1, startByte: 0, endByteExclusive: 5 * 1024 * 1024 });
    expect(big?.parts?.at(-1)?.endByteExclusive).toBe(files.big!.length);
  });

  it('lets storage refuse a wrong content type, a wrong checksum header and bytes that do not match', async () => {
    const spec = uploads.spec!;
    const wrongType = await put(
      spec.uploadUrl!,
      { ...spec.uploadHeaders, 'content-type': 'text/plain' },
      files.spec!,
    );
    const wrongDigestHeader = await put(
      spec.uploadUrl!,
      { ...spec.uploadHeaders, 'x-amz-checksum-sha256': Buffer.alloc(32).toString('base64') },
      files.spec!,
    );
    const noHeaders = await put(spec.uploadUrl!, {}, files.spec!);
    const wrongBytes = await put(uploads.bad!.uploadUrl!, uploads.bad!.uploadHeaders!, files.bad!);

    expect(wrongType.status).toBe(403);
    expect(wrongDigestHeader.status).toBeGreaterThanOrEqual(400);
    expect(noHeaders.status).toBe(403);
    expect(wrongBytes.status).toBe(400);
    expect(wrongBytes.text).toContain('BadDigest');
  });

  it('uploads through the signed URLs and completes; the bad file fails alone', async () => {
    for (const name of ['spec', 'sheet'] as const) {
      const upload = uploads[name]!;
      expect((await put(upload.uploadUrl!, upload.uploadHeaders!, files[name]!)).status).toBe(200);
    }
    const parts = [];
    for (const part of uploads.big!.parts!) {
      const sent = await put(
        part.uploadUrl,
        part.uploadHeaders,
        files.big!.subarray(part.startByte, part.endByteExclusive),
      );
      expect(sent.status).toBe(200);
      parts.push({ partNumber: part.partNumber, etag: sent.etag ?? '' });
    }
    const body = {
      directUploads: ['spec', 'sheet', 'bad'].map((name) => ({
        documentId: uploads[name]!.documentId,
        uploadToken: uploads[name]!.uploadToken,
      })),
      multipartUploads: [
        {
          documentId: uploads.big!.documentId,
          multipartUploadId: uploads.big!.multipartUploadId,
          uploadToken: uploads.big!.uploadToken,
          parts,
        },
      ],
    };

    const done = await api(`/api/open/v1/jobs/${jobId}/uploads/complete`, {
      method: 'POST',
      key: org.apiKey,
      body,
    });
    const again = await api(`/api/open/v1/jobs/${jobId}/uploads/complete`, {
      method: 'POST',
      key: org.apiKey,
      body,
    });

    expect(done.status).toBe(200);
    const outcome = Object.fromEntries(
      done.body.files.map((file: { documentId: string }) => [file.documentId, file]),
    );
    expect(outcome[uploads.spec!.documentId]).toMatchObject({ uploadStatus: 'uploaded' });
    expect(outcome[uploads.big!.documentId]).toMatchObject({ uploadStatus: 'uploaded' });
    expect(outcome[uploads.bad!.documentId]).toMatchObject({
      uploadStatus: 'failed',
      status: 'error',
      error: { code: 'upload_missing' },
    });
    expect(['preflighting', 'processing', 'completed']).toContain(done.body.job.status);
    expect(again.status).toBe(200);
  });

  it('processes the job to completed, debiting only successful pages', async () => {
    completed = await waitForJob(org.apiKey, jobId);
    const { job } = completed;

    expect(job.status).toBe('completed');
    expect(job.completedAt).toEqual(expect.any(String));
    expect(job.pageCount).toBe(5); // spec 2 + sheet 1 + big 2
    expect(job.successfulPageCount).toBe(5);
    expect(job.failedPageCount).toBe(0);
    expect(job.billing).toEqual({ creditsDebited: 5, creditsReserved: 0 });
    expect(job.progress).toMatchObject({
      processedPages: 5,
      totalPages: 5,
      percent: 100,
      phase: 'completed',
    });
    const byName = Object.fromEntries(job.files.map((file: { fileName: string }) => [file.fileName, file]));
    expect(byName['spec.pdf']).toMatchObject({
      status: 'ready',
      pageCount: 2,
      successfulPageCount: 2,
      uploadStatus: 'uploaded',
    });
    expect(byName['sheet.pdf']).toMatchObject({ status: 'ready', pageCount: 1, classification: 'plans' });
    expect(byName['big.pdf']).toMatchObject({ status: 'ready', pageCount: 2 });
    expect(byName['bad.pdf']).toMatchObject({ status: 'error', uploadStatus: 'failed' });
  });

  it('reflects the ingested content in the project overview', async () => {
    const overview = await api(`/api/open/v1/projects/${projectId}/overview`, { key: org.apiKey });
    expect(overview.body.overview.latestJob).toMatchObject({ id: jobId, status: 'completed' });
    expect(overview.body.overview.counts.files).toBe(3);
    expect(overview.body.overview.counts.sheets).toBeGreaterThanOrEqual(1);
    expect(overview.body.overview.counts.specifications).toBeGreaterThanOrEqual(2);
    expect(overview.body.overview.disciplines).toContainEqual(
      expect.objectContaining({ code: 'A', count: 1 }),
    );
  });

  it('lists jobs of the project and of the organization with filters', async () => {
    const ofProject = await api(`/api/open/v1/projects/${projectId}/jobs`, { key: org.apiKey });
    const active = await api('/api/open/v1/jobs?active_only=true', { key: org.apiKey });
    const completedOnly = await api(`/api/open/v1/jobs?status=completed&project_id=${projectId}`, {
      key: org.apiKey,
    });
    const files = await api(`/api/open/v1/jobs/${jobId}/files?status=error`, { key: org.apiKey });

    expect(ofProject.body.jobs.map((job: { id: string }) => job.id)).toEqual([jobId]);
    expect(active.body.jobs.map((job: { id: string }) => job.id)).not.toContain(jobId);
    expect(completedOnly.body.jobs.map((job: { id: string }) => job.id)).toEqual([jobId]);
    expect(files.body).toMatchObject({ fileCount: 1, nextCursor: null, cursor: null });
    expect(files.body.files[0].fileName).toBe('bad.pdf');
  });
});
