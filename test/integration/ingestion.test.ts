import { beforeAll, describe, expect, it } from 'vitest';
import { projectStore } from '../../functions/shared/wiring/adapters.ts';
import { defined } from '../defined.ts';
import { drawingSheetPdf, largePdf, sha256Hex, specificationPdf } from '../fixtures/pdfs.ts';
import {
  type ApiReply,
  api,
  apiUrl,
  createOrg,
  createProject,
  provisioningRecord,
  type TestOrg,
  waitForProject,
} from './helpers.ts';

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

/** Where a direct upload PUTs its bytes (a multipart upload has no such URL: the test fails naming it). */
function directTarget(upload: Upload) {
  return {
    url: defined(upload.uploadUrl, `an upload URL for ${upload.documentId}`),
    headers: defined(upload.uploadHeaders, `upload headers for ${upload.documentId}`),
  };
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

/** Registers the five files of the end-to-end job: direct, multipart, tampered and mis-declared. */
function declaredFiles(files: Record<string, Uint8Array>) {
  const pdf = (fileName: string, bytes: Uint8Array, extra: Record<string, string> = {}) => ({
    fileName,
    contentType: 'application/pdf',
    fileSize: bytes.length,
    sha256: sha256Hex(bytes),
    ...extra,
  });
  const at = (name: string) => files[name] ?? new Uint8Array();
  return [
    pdf('spec.pdf', at('spec')),
    pdf('sheet.pdf', at('sheet'), { classification: 'plans' }),
    pdf('big.pdf', at('big')),
    // Multipart: its parts cannot be bound to bytes, so one is altered in transit and preflight catches it.
    pdf('tampered.pdf', at('tampered')),
    // Declares the digest of other bytes than it will send.
    { ...pdf('bad.pdf', at('bad')), sha256: sha256Hex(at('sheet')) },
    // Completed before its PUT: it stays pending until its bytes arrive.
    pdf('late.pdf', at('late')),
  ];
}

async function putParts(upload: Upload, bytes: Uint8Array, alterPart?: number) {
  const sent = [];
  for (const part of upload.parts ?? []) {
    const slice = Uint8Array.from(bytes.subarray(part.startByte, part.endByteExclusive));
    if (part.partNumber === alterPart) slice[100] = (slice[100] ?? 0) ^ 0xff;
    const reply = await put(part.uploadUrl, part.uploadHeaders, slice);
    sent.push({ partNumber: part.partNumber, status: reply.status, etag: reply.etag ?? '' });
  }
  return sent;
}

describe('ingestion end to end', () => {
  // Prepare and act once (one job through the whole pipeline); each test below asserts one part of it.
  const files: Record<string, Uint8Array> = {};
  const flow = {} as {
    org: TestOrg;
    projectId: string;
    jobId: string;
    created: ApiReply;
    registered: ApiReply;
    uploads: Record<'spec' | 'sheet' | 'big' | 'tampered' | 'bad' | 'late', Upload>;
    refusals: Record<
      'wrongType' | 'wrongDigestHeader' | 'noHeaders' | 'wrongBytes',
      { status: number; text: string }
    >;
    directPuts: number[];
    partPuts: number[];
    first: ApiReply;
    done: ApiReply;
    again: ApiReply;
    reRegistered: ApiReply;
    recoveryPut: number;
    recovered: ApiReply;
    completed: Awaited<ReturnType<typeof waitForJob>>;
  };

  beforeAll(async () => {
    flow.org = await createOrg(10_000);
    const { apiKey: key } = flow.org;
    flow.projectId = (await createProject(key, 'Ingestion')).body.project.id;
    await waitForProject(key, flow.projectId);
    files.spec = await specificationPdf();
    files.sheet = await drawingSheetPdf();
    files.big = await largePdf(11 * 1024 * 1024);
    files.bad = await specificationPdf();
    files.tampered = await largePdf(6 * 1024 * 1024);
    files.late = await specificationPdf();

    flow.created = await api(`/api/open/v1/projects/${flow.projectId}/jobs`, {
      method: 'POST',
      key,
      body: { displayName: 'Bid set', externalId: 'ext-1' },
    });
    flow.jobId = flow.created.body.job.id;
    flow.registered = await api(`/api/open/v1/jobs/${flow.jobId}/uploads`, {
      method: 'POST',
      key,
      body: { files: declaredFiles(files) },
    });
    const registered = flow.registered.body.uploads as Upload[];
    const uploadOf = (index: number) => defined(registered[index], `upload ${index + 1} of the registration`);
    flow.uploads = {
      spec: uploadOf(0),
      sheet: uploadOf(1),
      big: uploadOf(2),
      tampered: uploadOf(3),
      bad: uploadOf(4),
      late: uploadOf(5),
    };
    const { uploads } = flow;
    const spec = directTarget(uploads.spec);
    const bad = directTarget(uploads.bad);

    flow.refusals = {
      wrongType: await put(spec.url, { ...spec.headers, 'content-type': 'text/plain' }, files.spec),
      wrongDigestHeader: await put(
        spec.url,
        { ...spec.headers, 'x-amz-checksum-sha256': Buffer.alloc(32).toString('base64') },
        files.spec,
      ),
      noHeaders: await put(spec.url, {}, files.spec),
      wrongBytes: await put(bad.url, bad.headers, files.bad),
    };

    flow.directPuts = [];
    for (const name of ['spec', 'sheet'] as const) {
      const { url, headers } = directTarget(uploads[name]);
      flow.directPuts.push(
        (await put(url, headers, defined(files[name], `the bytes of ${name}.pdf`))).status,
      );
    }
    const bigParts = await putParts(uploads.big, files.big);
    const tamperedParts = await putParts(uploads.tampered, files.tampered, 2);
    flow.partPuts = [...bigParts, ...tamperedParts].map((part) => part.status);
    const multipart = (upload: Upload, parts: { partNumber: number; etag: string }[]) => ({
      documentId: upload.documentId,
      multipartUploadId: upload.multipartUploadId,
      uploadToken: upload.uploadToken,
      parts: parts.map(({ partNumber, etag }) => ({ partNumber, etag })),
    });
    const body = {
      directUploads: (['spec', 'sheet', 'bad', 'late'] as const).map((name) => ({
        documentId: uploads[name].documentId,
        uploadToken: uploads[name].uploadToken,
      })),
      multipartUploads: [multipart(uploads.big, bigParts), multipart(uploads.tampered, tamperedParts)],
    };
    // A first completion lists only the spec: the answer names every file the job still waits for.
    flow.first = await api(`/api/open/v1/jobs/${flow.jobId}/uploads/complete`, {
      method: 'POST',
      key,
      body: { directUploads: body.directUploads.slice(0, 1) },
    });
    flow.done = await api(`/api/open/v1/jobs/${flow.jobId}/uploads/complete`, { method: 'POST', key, body });
    flow.again = await api(`/api/open/v1/jobs/${flow.jobId}/uploads/complete`, { method: 'POST', key, body });
    // Both pending files recovered as their error advises: the late one is registered again (same
    // declaration) for a fresh URL, PUT and completed; the one whose declaration no bytes can match
    // is cancelled, and the job goes on without it.
    flow.reRegistered = await api(`/api/open/v1/jobs/${flow.jobId}/uploads`, {
      method: 'POST',
      key,
      body: { files: [declaredFiles(files)[5]] },
    });
    const fresh = flow.reRegistered.body.uploads[0] as Upload;
    const freshTarget = directTarget(fresh);
    flow.recoveryPut = (await put(freshTarget.url, freshTarget.headers, files.late)).status;
    flow.recovered = await api(`/api/open/v1/jobs/${flow.jobId}/uploads/complete`, {
      method: 'POST',
      key,
      body: {
        directUploads: [{ documentId: fresh.documentId, uploadToken: fresh.uploadToken }],
        cancelledUploads: [{ documentId: uploads.bad.documentId, uploadToken: uploads.bad.uploadToken }],
      },
    });
    flow.completed = await waitForJob(key, flow.jobId);
  });

  it('refuses a job in a project that is not ready', async () => {
    // Prepare: a project charged and recorded as the create endpoint does, whose provisioning never starts.
    const org = await createOrg(1_000);
    const record = provisioningRecord(org.orgId, 'Not ready yet');
    await projectStore().createWithCharge({
      orgId: org.orgId,
      project: record,
      price: 100,
      ledgerEntryId: record.charge.ledgerEntryId,
    });

    // Act
    const job = await api(`/api/open/v1/projects/${record.id}/jobs`, {
      method: 'POST',
      key: org.apiKey,
      body: {},
    });

    // Assess
    expect(job.status).toBe(409);
    expect(job.body.error.code).toBe('project_not_ready');
  });

  it('creates a job and registers direct and multipart uploads', () => {
    const { created, registered, uploads, projectId } = flow;
    expect(created.status).toBe(201);
    expect(created.body.job).toMatchObject({
      status: 'awaiting_uploads',
      projectId,
      project: { id: projectId, name: 'Ingestion' },
    });
    expect(registered.status).toBe(200);
    expect(registered.body.job.status).toBe('uploading');
    expect(uploads.spec?.uploadMode).toBe('direct_put');
    expect(uploads.spec?.uploadHeaders).toMatchObject({
      'content-type': 'application/pdf',
      'x-amz-checksum-sha256': expect.any(String),
    });
    expect(uploads.big?.uploadMode).toBe('multipart');
    expect(uploads.big?.parts?.length).toBe(3);
    expect(uploads.big?.parts?.[0]).toMatchObject({
      partNumber: 1,
      startByte: 0,
      endByteExclusive: 5 * 1024 * 1024,
    });
    expect(uploads.big?.parts?.at(-1)?.endByteExclusive).toBe(files.big?.length);
  });

  it('lets storage refuse a wrong content type, a wrong checksum header and bytes that do not match', () => {
    const { wrongType, wrongDigestHeader, noHeaders, wrongBytes } = flow.refusals;
    expect(wrongType.status).toBe(403);
    expect(wrongDigestHeader.status).toBeGreaterThanOrEqual(400);
    expect(noHeaders.status).toBe(403);
    expect(wrongBytes.status).toBe(400);
    expect(wrongBytes.text).toContain('BadDigest');
  });

  it('uploads through the signed URLs and completes; a file whose bytes are missing stays pending', () => {
    const { done, again, uploads } = flow;
    expect(flow.directPuts).toEqual([200, 200]);
    expect(flow.partPuts).toEqual([200, 200, 200, 200, 200]);
    expect(done.status).toBe(200);
    const outcome = Object.fromEntries(
      done.body.files.map((file: { documentId: string }) => [file.documentId, file]),
    );
    expect(outcome[uploads.spec.documentId]).toMatchObject({ uploadStatus: 'uploaded' });
    expect(outcome[uploads.big.documentId]).toMatchObject({ uploadStatus: 'uploaded' });
    expect(outcome[uploads.bad.documentId]).toMatchObject({
      uploadStatus: 'pending',
      status: 'processing',
      error: { code: 'upload_missing' },
    });
    expect(outcome[uploads.late.documentId]).toMatchObject({
      uploadStatus: 'pending',
      error: { code: 'upload_missing' },
    });
    expect(outcome[uploads.late.documentId].error.message).toContain('complete again');
    // Nothing starts while a file is pending; completing again changes nothing.
    expect(done.body.job.status).toBe('uploading');
    expect(again.status).toBe(200);
    expect(again.body.job.status).toBe('uploading');
  });

  it('names every file the job still waits for, and why, in each completion', () => {
    // Prepare
    const { first, done, uploads } = flow;
    const waiting = (reply: ApiReply) =>
      (reply.body.waitingFor as { documentId: string; fileName: string; reason: string }[])
        .map(({ documentId, reason }) => [documentId, reason])
        .sort();
    // Assess: listing only the spec leaves the five others not completed; after the full completion
    // only the two whose bytes are not in storage remain
    expect(first.status).toBe(200);
    expect(waiting(first)).toEqual(
      (['sheet', 'big', 'tampered', 'bad', 'late'] as const)
        .map((name) => [uploads[name].documentId, 'not_completed'])
        .sort(),
    );
    expect(waiting(done)).toEqual(
      (['bad', 'late'] as const).map((name) => [uploads[name].documentId, 'upload_missing']).sort(),
    );
    expect(done.body.waitingFor.map((file: { fileName: string }) => file.fileName).sort()).toEqual([
      'bad.pdf',
      'late.pdf',
    ]);
  });

  it('recovers pending files as their error advises: register again, PUT, complete; or cancel', () => {
    const { reRegistered, recovered, uploads } = flow;
    expect(reRegistered.status).toBe(200);
    expect(reRegistered.body.documents[0]).toMatchObject({
      documentId: uploads.late.documentId,
      uploadRequired: true,
    });
    expect(reRegistered.body.uploads[0].uploadToken).not.toBe(uploads.late.uploadToken);
    expect(flow.recoveryPut).toBe(200);
    expect(recovered.status).toBe(200);
    expect(recovered.body.files).toEqual([
      expect.objectContaining({
        documentId: uploads.late.documentId,
        uploadStatus: 'uploaded',
        error: null,
      }),
      expect.objectContaining({
        documentId: uploads.bad.documentId,
        status: 'cancelled',
        error: expect.objectContaining({ code: 'upload_cancelled' }),
      }),
    ]);
    expect(['preflighting', 'processing', 'completed']).toContain(recovered.body.job.status);
  });

  it('processes the job to completed, debiting only successful pages', () => {
    const { job } = flow.completed;
    expect(job.status).toBe('completed');
    expect(job.completedAt).toEqual(expect.any(String));
    expect(job.pageCount).toBe(7); // spec 2 + sheet 1 + big 2 + the late file 2
    expect(job.successfulPageCount).toBe(7);
    expect(job.failedPageCount).toBe(0);
    expect(job.billing).toEqual({ creditsDebited: 7, creditsReserved: 0 });
    expect(job.progress).toMatchObject({
      processedPages: 7,
      totalPages: 7,
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
    expect(byName['bad.pdf']).toMatchObject({ status: 'cancelled', uploadStatus: 'failed' });
    expect(byName['late.pdf']).toMatchObject({ status: 'ready', uploadStatus: 'uploaded', pageCount: 2 });
    expect(byName['tampered.pdf']).toMatchObject({
      status: 'error',
      uploadStatus: 'uploaded',
      error: { code: 'checksum_mismatch' },
    });
  });

  it('reflects the ingested content in the project overview', async () => {
    const overview = await api(`/api/open/v1/projects/${flow.projectId}/overview`, { key: flow.org.apiKey });
    expect(overview.body.overview.latestJob).toMatchObject({ id: flow.jobId, status: 'completed' });
    expect(overview.body.overview.counts.files).toBe(4);
    expect(overview.body.overview.counts.sheets).toBeGreaterThanOrEqual(1);
    expect(overview.body.overview.counts.specifications).toBeGreaterThanOrEqual(2);
    expect(overview.body.overview.disciplines).toContainEqual(
      expect.objectContaining({ code: 'A', count: 1 }),
    );
  });

  it('lists jobs of the project and of the organization with filters', async () => {
    const { projectId, jobId } = flow;
    const key = flow.org.apiKey;
    const ofProject = await api(`/api/open/v1/projects/${projectId}/jobs`, { key });
    const active = await api('/api/open/v1/jobs?active_only=true', { key });
    const completedOnly = await api(`/api/open/v1/jobs?status=completed&project_id=${projectId}`, { key });
    const files = await api(`/api/open/v1/jobs/${jobId}/files?status=error`, { key });
    const firstPage = await api(`/api/open/v1/jobs/${jobId}/files?limit=2`, { key });
    const secondPage = await api(
      `/api/open/v1/jobs/${jobId}/files?limit=2&cursor=${encodeURIComponent(firstPage.body.nextCursor)}`,
      { key },
    );

    expect(ofProject.body.jobs.map((job: { id: string }) => job.id)).toEqual([jobId]);
    expect(active.body.jobs.map((job: { id: string }) => job.id)).not.toContain(jobId);
    expect(completedOnly.body.jobs.map((job: { id: string }) => job.id)).toEqual([jobId]);
    expect(files.body).toMatchObject({ fileCount: 1, nextCursor: null, cursor: null });
    expect(files.body.files.map((file: { fileName: string }) => file.fileName)).toEqual(['tampered.pdf']);
    expect(firstPage.body).toMatchObject({ fileCount: 6, files: [expect.anything(), expect.anything()] });
    expect(secondPage.body.files.map((file: { id: string }) => file.id)).not.toContain(
      firstPage.body.files[0].id,
    );
  });
});

describe('extracted content listings and artifacts', () => {
  let org: TestOrg;
  let projectId: string;
  let jobId: string;

  beforeAll(async () => {
    org = await createOrg(10_000);
    projectId = (await createProject(org.apiKey, 'Listings')).body.project.id;
    await waitForProject(org.apiKey, projectId);
    jobId = (
      await api(`/api/open/v1/projects/${projectId}/jobs`, { method: 'POST', key: org.apiKey, body: {} })
    ).body.job.id;
    const pdfs = {
      'spec.pdf': await specificationPdf(),
      'a101.pdf': await drawingSheetPdf('A-101', 'FIRST FLOOR PLAN'),
    };
    const registered = await api(`/api/open/v1/jobs/${jobId}/uploads`, {
      method: 'POST',
      key: org.apiKey,
      body: {
        files: Object.entries(pdfs).map(([fileName, bytes]) => ({
          fileName,
          contentType: 'application/pdf',
          fileSize: bytes.length,
          sha256: sha256Hex(bytes),
        })),
      },
    });
    const direct = [];
    for (const [index, bytes] of Object.values(pdfs).entries()) {
      const upload = registered.body.uploads[index] as Upload;
      const { url, headers } = directTarget(upload);
      expect((await put(url, headers, bytes)).status).toBe(200);
      direct.push({ documentId: upload.documentId, uploadToken: upload.uploadToken });
    }
    await api(`/api/open/v1/jobs/${jobId}/uploads/complete`, {
      method: 'POST',
      key: org.apiKey,
      body: { directUploads: direct },
    });
    const { job } = await waitForJob(org.apiKey, jobId);
    expect(job.status).toBe('completed');
  });

  it('lists sheets with their number, title and discipline', async () => {
    const sheets = await api(`/api/open/v1/projects/${projectId}/sheets`, { key: org.apiKey });
    expect(sheets.status).toBe(200);
    expect(sheets.body.total).toBe(1);
    expect(sheets.body.sheets[0]).toMatchObject({
      sheetNumber: 'A-101',
      fileName: 'a101.pdf',
      pageNumber: 1,
      discipline: expect.objectContaining({ code: 'A' }),
    });
  });

  it('lists regions with filters, pagination whose totals match, and compact', async () => {
    const all = await api(`/api/open/v1/projects/${projectId}/regions`, { key: org.apiKey });
    expect(all.status).toBe(200);
    expect(all.body.total).toBeGreaterThanOrEqual(2);
    const titleBlock = all.body.regions.find(
      (region: { regionType: string }) => region.regionType === 'titleBlock',
    );
    expect(titleBlock).toMatchObject({ sheetNumber: 'A-101', fileName: 'a101.pdf', pageNumber: 1 });
    expect(titleBlock.displayBox).toEqual(
      expect.objectContaining({ left: expect.any(Number), bottom: expect.any(Number) }),
    );
    expect(titleBlock.normalizedData).toMatchObject({ schemaVersion: 1 });

    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const query: string = cursor ? `?limit=1&cursor=${encodeURIComponent(cursor)}` : '?limit=1';
      const page = await api(`/api/open/v1/projects/${projectId}/regions${query}`, { key: org.apiKey });
      expect(page.body.total).toBe(all.body.total);
      seen.push(...page.body.regions.map((region: { regionId: string }) => region.regionId));
      cursor = page.body.nextCursor;
    } while (cursor);
    expect(seen).toEqual(all.body.regions.map((region: { regionId: string }) => region.regionId));

    const byType = await api(
      `/api/open/v1/projects/${projectId}/regions?regionType=titleBlock&fileName=A101`,
      { key: org.apiKey },
    );
    expect(
      byType.body.regions.every((region: { regionType: string }) => region.regionType === 'titleBlock'),
    ).toBe(true);
    expect(byType.body.total).toBe(byType.body.regions.length);
    const none = await api(`/api/open/v1/projects/${projectId}/regions?fileName=nothing-like-this`, {
      key: org.apiKey,
    });
    expect(none.body).toMatchObject({ total: 0, regions: [], nextCursor: null });
    const compact = await api(`/api/open/v1/projects/${projectId}/regions?compact=true`, { key: org.apiKey });
    expect(compact.body.regions[0].artifacts).toBeUndefined();
    expect(titleBlock.artifacts).toEqual([
      expect.objectContaining({ type: 'region_crop', readWith: 'service_show_artifact_file' }),
    ]);
    const crop = await fetch(`${apiUrl}${titleBlock.artifacts[0].url}`, {
      headers: { authorization: `Bearer ${org.apiKey}` },
    });
    expect(crop.status).toBe(200);
    expect([...new Uint8Array(await crop.arrayBuffer()).subarray(0, 4)]).toEqual([0x89, 0x50, 0x4e, 0x47]);

    const sheetId = titleBlock.sheetId;
    const ofSheet = await api(`/api/open/v1/projects/${projectId}/sheets/${sheetId}/regions`, {
      key: org.apiKey,
    });
    expect(ofSheet.body.total).toBe(all.body.total);
    const badSheet = await api(`/api/open/v1/projects/${projectId}/sheets/sht_nope/regions`, {
      key: org.apiKey,
    });
    expect(badSheet.status).toBe(404);
    const sheetsParam = await api(
      `/api/open/v1/projects/${projectId}/sheets/${sheetId}/regions?sheets=${sheetId}`,
      { key: org.apiKey },
    );
    expect(sheetsParam.status).toBe(400);
  });

  it('lists specification sections with facets, and the sections of one specification document', async () => {
    const specs = await api(`/api/open/v1/projects/${projectId}/specifications?sectionNumber=09%2029%2000`, {
      key: org.apiKey,
    });
    expect(specs.status).toBe(200);
    expect(specs.body.total).toBe(1);
    const section = specs.body.specifications[0];
    expect(section).toMatchObject({
      sectionNumber: '09 29 00',
      sectionTitle: 'GYPSUM BOARD',
      pageStart: 1,
      pageEnd: 2,
      fileName: 'spec.pdf',
    });
    expect(section.facets.map((facet: { facetKey: string }) => facet.facetKey)).toEqual(
      expect.arrayContaining(['part-1', 'part-2', 'part-3']),
    );
    expect(section.facets[0]).toMatchObject({
      facetId: expect.any(String),
      coverageKind: 'full',
      facetText: expect.any(String),
    });

    const sections = await api(
      `/api/open/v1/projects/${projectId}/specifications/${section.specId}/sections`,
      { key: org.apiKey },
    );
    expect(sections.status).toBe(200);
    expect(sections.body.sections).toEqual([
      expect.objectContaining({
        sectionNumber: '09 29 00',
        pageStart: 1,
        pageEnd: 2,
        textLength: expect.any(Number),
      }),
    ]);
    const missing = await api(
      `/api/open/v1/projects/${projectId}/specifications/doc_00000000000000000000000000/sections`,
      { key: org.apiKey },
    );
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe('open_api_specification_not_found');
    const badLimit = await api(
      `/api/open/v1/projects/${projectId}/specifications/${section.specId}/sections?limit=501`,
      { key: org.apiKey },
    );
    expect(badLimit.status).toBe(400);
    expect(badLimit.body.error.code).toBe('invalid_request');

    const referenced = await api(
      `/api/open/v1/projects/${projectId}/specifications?sheets=sht_00000000000000000000000000_1`,
      { key: org.apiKey },
    );
    expect(referenced.body.total).toBe(0);
  });

  it('downloads artifacts a response exposed, and refuses any other path', async () => {
    const specs = await api(`/api/open/v1/projects/${projectId}/specifications`, { key: org.apiKey });
    const artifact = specs.body.specifications[0].artifacts[0];
    expect(artifact).toMatchObject({ type: 'specification_file', readWith: 'service_show_artifact_file' });
    const response = await fetch(`${apiUrl}${artifact.url}`, {
      headers: { authorization: `Bearer ${org.apiKey}` },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/octet-stream');
    const bytes = new Uint8Array(await response.arrayBuffer());
    expect(Buffer.from(bytes.subarray(0, 5)).toString('latin1')).toBe('%PDF-');

    const other = await createProject(org.apiKey, 'Other');
    await waitForProject(org.apiKey, other.body.project.id);
    const crossProject = await api(
      `/api/open/v1/projects/${other.body.project.id}/artifact?path=${encodeURIComponent(artifact.path)}`,
      { key: org.apiKey },
    );
    const constructed = await api(
      `/api/open/v1/projects/${projectId}/artifact?path=${encodeURIComponent(`${Buffer.from(`orgs/${org.orgId}/projects/${projectId}/jobs/${jobId}/result.json`).toString('base64url')}.AAAA`)}`,
      { key: org.apiKey },
    );
    const missingPath = await api(`/api/open/v1/projects/${projectId}/artifact`, { key: org.apiKey });
    expect(crossProject.status).toBe(404);
    expect(constructed.status).toBe(404);
    expect(constructed.body.error.code).toBe('artifact_not_found');
    expect(missingPath.status).toBe(400);
    const noScope = await org.keyWith(['jobs:read']);
    expect((await api(artifact.url, { key: noScope })).status).toBe(403);
  });

  it('serves the immutable job result and its artifacts', async () => {
    const result = await api(`/api/open/v1/jobs/${jobId}/result`, { key: org.apiKey });
    expect(result.status).toBe(200);
    expect(result.body.result).toMatchObject({
      jobId,
      projectId,
      status: 'completed',
      successfulPageCount: 3,
    });
    expect(result.body.result.artifacts.length).toBeGreaterThanOrEqual(1);
    const first = result.body.result.artifacts[0];
    const download = await fetch(`${apiUrl}${first.url}`, {
      headers: { authorization: `Bearer ${org.apiKey}` },
    });
    expect(download.status).toBe(200);
    const projectPath = (await api(`/api/open/v1/projects/${projectId}/specifications`, { key: org.apiKey }))
      .body.specifications[0].artifacts[0].path;
    const notInResult = await api(
      `/api/open/v1/jobs/${jobId}/artifact?path=${encodeURIComponent(projectPath)}`,
      { key: org.apiKey },
    );
    expect(notInResult.status).toBe(404);
  });

  it("pages the result's artifacts, each page with the whole rest of the result", async () => {
    // Act
    const whole = await api(`/api/open/v1/jobs/${jobId}/result`, { key: org.apiKey });
    const paths: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const query: string = cursor ? `limit=1&cursor=${encodeURIComponent(cursor)}` : 'limit=1';
      const page = await api(`/api/open/v1/jobs/${jobId}/result?${query}`, { key: org.apiKey });
      expect(page.status).toBe(200);
      expect(page.body.result.successfulPageCount).toBe(3);
      paths.push(...page.body.result.artifacts.map((artifact: { path: string }) => artifact.path));
      cursor = page.body.nextCursor;
      pages++;
    } while (cursor && pages < 100);
    const first = await api(`/api/open/v1/jobs/${jobId}/result?limit=1`, { key: org.apiKey });
    const tampered = await api(
      `/api/open/v1/jobs/${jobId}/result?cursor=${encodeURIComponent(`${first.body.nextCursor}x`)}`,
      { key: org.apiKey },
    );
    const tooMany = await api(`/api/open/v1/jobs/${jobId}/result?limit=1001`, { key: org.apiKey });

    // Assess
    expect(whole.body.total).toBe(whole.body.result.artifacts.length);
    expect(whole.body.total).toBeGreaterThanOrEqual(2);
    expect(paths).toEqual(whole.body.result.artifacts.map((artifact: { path: string }) => artifact.path));
    expect(pages).toBe(whole.body.total);
    expect(first.body).toMatchObject({ limit: 1, returnedCount: 1, hasMore: true, cursor: null });
    expect(tampered.status).toBe(400);
    expect(tampered.body.error.code).toBe('invalid_cursor');
    expect(tooMany.status).toBe(400);
  });

  it('lists documents with their classification', async () => {
    const documents = await api(`/api/open/v1/projects/${projectId}/documents`, { key: org.apiKey });
    expect(documents.body.total).toBe(2);
    const spec = documents.body.documents.find(
      (document: { fileName: string }) => document.fileName === 'spec.pdf',
    );
    expect(spec).toMatchObject({
      classification: 'specifications',
      pageCount: 2,
      specificationCount: 1,
      status: 'ready',
    });
  });
});
