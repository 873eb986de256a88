import { describe, expect, inject, it } from 'vitest';
import { createOrg } from '../../test/integration/helpers.ts';
import {
  createClient,
  PsaApiError,
  type PsaNodeClient,
  PsaTimeoutError,
  PsaUploadError,
  type ReviewStreamEvent,
  type UploadProgressEvent,
  type UploadState,
} from '../src/node.ts';
import { waitForProject } from '../src/wait.ts';
import { pdfFolder } from './fixtures.ts';

const baseUrl = inject('apiUrl');

/** A fetch that lets the test break the transport (drop, 429, 503) around the real local stack. */
function faultyFetch(
  fault: (url: string, init: RequestInit | undefined, call: number) => Response | 'throw' | null,
) {
  let call = 0;
  const calls: string[] = [];
  const wrapped: typeof fetch = async (input, init) => {
    const url = input instanceof Request ? input.url : String(input);
    const method = input instanceof Request ? input.method : (init?.method ?? 'GET');
    call += 1;
    calls.push(`${method} ${url}`);
    const injected = fault(url, init, call);
    if (injected === 'throw') throw new TypeError('fetch failed (injected)');
    if (injected) return injected;
    return fetch(input, init);
  };
  return { fetch: wrapped, calls };
}

async function readyProject(client: PsaNodeClient, name: string) {
  const created = await client.projects.create(name);
  return client.waitForProject(created.project.id, { intervalMs: 100, timeoutMs: 30_000 });
}

describe('SDK against the local stack', () => {
  it('uploads a folder (direct and multipart), waits, lists every page of regions, searches and streams an answer', async () => {
    // Prepare
    const org = await createOrg(100_000);
    const client = createClient({ baseUrl, apiKey: org.apiKey });
    const project = await readyProject(client, 'SDK walkthrough');
    const folder = await pdfFolder({ large: true });
    const job = await client.jobs.create(project.id, { displayName: 'Bid set' });
    const progress: UploadProgressEvent[] = [];

    // Act
    const uploaded = await client.uploadFiles(job.id, [folder], {
      concurrency: 3,
      onProgress: (event) => progress.push(event),
    });
    const done = await client.waitForJob(job.id, { intervalMs: 250, timeoutMs: 240_000 });
    const regions = [];
    for await (const region of client.regions.list(project.id, { limit: 2, compact: 'true' }))
      regions.push(region);
    const firstPage = await client.api.GET('/api/open/v1/projects/{projectId}/regions', {
      params: { path: { projectId: project.id }, query: { limit: 2 } },
    });
    const sheets = [];
    for await (const sheet of client.sheets.list(project.id)) sheets.push(sheet);
    const search = await client.sources.search(project.id, { query: 'gypsum board', maxHits: 5 });
    const review = await client.reviews.create(project.id, 'Bid questions');
    const execution = await client.reviews.ask(project.id, review.id, 'Who pays the permit fees?');
    const events: ReviewStreamEvent[] = [];
    for await (const event of client.streamExecution(execution)) events.push(event);

    // Assess
    expect(uploaded.files.map((file) => file.status).sort()).toEqual(Array(5).fill('processing'));
    expect(uploaded.files.every((file) => file.error === null)).toBe(true);
    const large = progress.filter((event) => event.fileName === 'spec-large.pdf');
    expect(large.at(-1)).toMatchObject({ status: 'completed', bytesSent: large.at(-1)?.bytesTotal });
    expect(large.filter((event) => event.status === 'uploading').length).toBeGreaterThanOrEqual(2); // two parts
    expect(done.status).toBe('completed');
    expect(done.files.map((file) => file.status)).toEqual(Array(5).fill('ready'));
    expect(regions.length).toBe(firstPage.data?.total);
    expect(regions.length).toBeGreaterThan(2); // more than one page was followed
    expect(new Set(regions.map((region) => region.regionId)).size).toBe(regions.length);
    expect(sheets.map((sheet) => sheet.sheetNumber).sort()).toEqual(
      expect.arrayContaining(['A-101', 'A-501']),
    );
    expect(search.hits.length).toBeGreaterThan(0);
    expect(search.hits.some((hit) => /gypsum/i.test(hit.snippet))).toBe(true);
    const sequences = events.filter((e) => e.type !== 'stream.ready').map((e) => e.sequence);
    expect(sequences).toEqual([...sequences].sort((a, b) => a - b));
    expect(new Set(sequences).size).toBe(sequences.length);
    expect(events.at(-1)?.type).toBe('response.completed');
    const citations = events.filter((e) => e.type === 'citation');
    expect(citations.length).toBeGreaterThan(0);
    expect(citations.map((e) => e.payload.fileName)).toContain('addendum-02.pdf');
  });

  it('resumes an interrupted upload by registering again, sending only the parts storage never acknowledged', async () => {
    // Prepare
    const org = await createOrg(100_000);
    const plain = createClient({ baseUrl, apiKey: org.apiKey });
    const project = await readyProject(plain, 'SDK resume');
    const folder = await pdfFolder({ large: true });
    const job = await plain.jobs.create(project.id);
    let saved: UploadState | undefined;
    let partPuts = 0;
    // Storage drops the connection on the second part of the large file, every time it is tried.
    const broken = faultyFetch((url, init) => {
      if (init?.method !== 'PUT' || !url.includes('partNumber=')) return null;
      partPuts += 1;
      return url.includes('partNumber=2') ? 'throw' : null;
    });

    // Act
    const interrupted = await plain
      .uploadFiles(job.id, [folder], {
        fetch: broken.fetch,
        attempts: 2,
        concurrency: 1,
        onState: (state) => {
          saved = structuredClone(state);
        },
      })
      .catch((error: unknown) => error);
    const afterInterruption = await plain.jobs.get(job.id);
    const partsBefore = partPuts;
    const resumedPuts = faultyFetch(() => null);
    const resumed = await plain.uploadFiles(job.id, [folder], { fetch: resumedPuts.fetch, state: saved });
    const done = await plain.waitForJob(job.id, { intervalMs: 250, timeoutMs: 240_000 });

    // Assess
    expect(interrupted).toBeInstanceOf(PsaUploadError);
    expect((interrupted as PsaUploadError).fileName).toBe('spec-large.pdf');
    expect(afterInterruption.status).toBe('uploading');
    expect(partsBefore).toBe(3); // part 1 once, part 2 twice (both attempts failed)
    const resentParts = resumedPuts.calls.filter((call) => call.includes('partNumber='));
    expect(resentParts).toHaveLength(1);
    expect(resentParts[0]).toContain('partNumber=2');
    expect(resumed.files.every((file) => file.error === null)).toBe(true);
    expect(done.status).toBe('completed');
    expect(done.successfulPageCount).toBe(done.pageCount);
  });

  it('throws typed errors with code, message and requestId, and retries 429 (Retry-After) and 5xx of idempotent calls', async () => {
    // Prepare
    const org = await createOrg();
    let seen429 = 0;
    let seen503 = 0;
    const flaky = faultyFetch((url) => {
      if (url.endsWith('/api/open/v1/projects?limit=1') && seen429 === 0) {
        seen429 += 1;
        return new Response('{}', { status: 429, headers: { 'retry-after': '1' } });
      }
      if (url.includes('/overview') && seen503 < 2) {
        seen503 += 1;
        return new Response('bad gateway', { status: 503 });
      }
      if (url.endsWith('/api/open/v1/projects/search')) return new Response('oops', { status: 500 });
      return null;
    });
    const client = createClient({
      baseUrl,
      apiKey: org.apiKey,
      fetch: flaky.fetch,
      retry: { baseDelayMs: 10 },
    });
    const project = await readyProject(client, 'SDK errors');

    // Act
    const started = Date.now();
    const listed = await client.api.GET('/api/open/v1/projects', { params: { query: { limit: 1 } } });
    const waited = Date.now() - started;
    const overview = await client.projects.overview(project.id);
    const missing = await client.projects
      .get('prj_00000000000000000000000000')
      .catch((error: unknown) => error);
    const searchCalls = () => flaky.calls.filter((call) => call.endsWith('/projects/search')).length;
    const searchFailure = await client.projects.search({ query: 'x' }).catch((error: unknown) => error);
    const badKey = await createClient({ baseUrl, apiKey: 'psk_not_a_real_key' })
      .projects.get(project.id)
      .catch((error: unknown) => error);

    // Assess
    expect(listed.response.status).toBe(200);
    expect(seen429).toBe(1);
    expect(waited).toBeGreaterThanOrEqual(1000); // Retry-After: 1 was honoured
    expect(seen503).toBe(2);
    expect(overview.overview.status).toBe('ready');
    expect(missing).toBeInstanceOf(PsaApiError);
    expect(missing).toMatchObject({ status: 404, code: 'project_not_found' });
    expect((missing as PsaApiError).requestId).toMatch(/\S+/);
    expect(searchFailure).toMatchObject({ status: 500, code: 'unexpected_response' });
    expect(searchCalls()).toBe(1); // a POST without Idempotency-Key is never repeated on a 5xx
    expect(badKey).toMatchObject({ status: 401, code: 'unauthorized' });
    expect(String(badKey)).not.toContain('psk_not_a_real_key');
  });

  it('resumes the review stream with `after` across dropped connections and a 503, with no gap and no duplicate', async () => {
    // Prepare
    const org = await createOrg(100_000);
    const client = createClient({ baseUrl, apiKey: org.apiKey });
    const project = await readyProject(client, 'SDK stream');
    const folder = await pdfFolder();
    const job = await client.jobs.create(project.id);
    await client.uploadFiles(job.id, [folder]);
    await client.waitForJob(job.id, { intervalMs: 250, timeoutMs: 240_000 });
    const review = await client.reviews.create(project.id, 'Stream');
    const execution = await client.reviews.ask(project.id, review.id, 'Who pays the permit fees?');
    const reference: ReviewStreamEvent[] = [];
    for await (const event of client.streamExecution(execution)) reference.push(event);
    let connections = 0;
    const cutting = faultyFetch(() => null);
    // Connection 1 ends cleanly after two lines, 2 answers 503, 3 breaks after two lines, 4 is whole.
    const dropping: typeof fetch = async (input, init) => {
      connections += 1;
      if (connections === 2)
        return new Response('{"error":{}}', { status: 503, headers: { 'retry-after': '0' } });
      const response = await cutting.fetch(input, init);
      if (connections > 3) return response;
      const kept = `${(await response.text()).split('\n').slice(0, 2).join('\n')}\n`;
      const broken = connections === 3;
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(new TextEncoder().encode(kept));
          if (!broken) controller.close();
        },
        pull(controller) {
          if (broken) controller.error(new TypeError('terminated'));
        },
      });
      return new Response(body, { status: response.status, headers: response.headers });
    };
    const resuming = createClient({ baseUrl, apiKey: org.apiKey, fetch: dropping });
    const reconnects: number[] = [];

    // Act
    const events: ReviewStreamEvent[] = [];
    for await (const event of resuming.streamExecution(execution, {
      onReconnect: ({ after }) => reconnects.push(after),
    }))
      events.push(event);

    // Assess
    const stored = (list: ReviewStreamEvent[]) =>
      list.filter((e) => e.type !== 'stream.ready').map((e) => `${e.sequence}:${e.type}`);
    expect(reconnects.length).toBeGreaterThanOrEqual(3);
    expect(cutting.calls.some((call) => /after=(?!-1)\d+/.test(call))).toBe(true);
    expect(stored(events)).toEqual(stored(reference));
    expect(events.at(-1)?.type).toBe('response.completed');
  });

  it('treats a project still provisioning after the deadline as a provisioning failure', async () => {
    // Prepare
    const org = await createOrg();
    const client = createClient({ baseUrl, apiKey: org.apiKey });
    const created = await client.projects.create('SDK timeout');
    let polls = 0;

    // Act
    const failure = await waitForProject(
      async () => {
        polls += 1;
        return created.project; // the 202's project, provisioning as created
      },
      { intervalMs: 20, timeoutMs: 100 },
    ).catch((error: unknown) => error);

    // Assess
    expect(created.project.status).toBe('provisioning');
    expect(failure).toBeInstanceOf(PsaTimeoutError);
    expect(polls).toBeGreaterThanOrEqual(3);
  });
});
