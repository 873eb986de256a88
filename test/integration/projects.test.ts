import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { entities } from '../../functions/adapters/dynamodb/table.ts';
import { dynamo } from '../../functions/shared/clients.ts';
import { organizationStore, projectStore } from '../../functions/shared/wiring/adapters.ts';
import {
  api,
  createOrg,
  createProject,
  provisioningRecord,
  type TestOrg,
  uniqueName,
  waitForProject,
} from './helpers.ts';

describe('projects', () => {
  let org: TestOrg;
  beforeAll(async () => {
    org = await createOrg(10_000);
  });

  it('creates a project, charges credits, and provisions it to ready', async () => {
    // Prepare
    const name = uniqueName('Gymnasium');
    const balanceBefore = await organizationStore().balance(org.orgId);

    // Act
    const started = Date.now();
    const created = await createProject(org.apiKey, name);
    const ready = await waitForProject(org.apiKey, created.body.project.id);
    const elapsed = Date.now() - started;

    // Assess
    expect(created.status).toBe(202);
    expect(created.body.project).toMatchObject({
      name,
      projectKind: 'open_api',
      status: 'provisioning',
      runtime: { status: 'starting' },
      disciplines: [],
    });
    expect(created.body.billing).toEqual({
      availableCredits: (balanceBefore ?? 0) - 100,
      creditsCharged: 100,
      requiredCredits: 100,
    });
    expect(ready).toMatchObject({
      status: 'ready',
      runtime: { status: 'ready', upgradeStatus: 'none' },
      error: null,
    });
    console.log(`create -> ready: ${elapsed} ms`);
    const ledger = await organizationStore().ledger(org.orgId);
    expect(ledger.filter((entry) => entry.projectId === created.body.project.id)).toEqual([
      expect.objectContaining({ kind: 'project_creation', amount: -100 }),
    ]);
  });

  it('gets a project and its overview with zero counts before any job', async () => {
    const created = await createProject(org.apiKey, uniqueName('Overview'));
    const projectId = created.body.project.id;
    await waitForProject(org.apiKey, projectId);

    const got = await api(`/api/open/v1/projects/${projectId}`, { key: org.apiKey });
    const overview = await api(`/api/open/v1/projects/${projectId}/overview`, { key: org.apiKey });

    expect(got.status).toBe(200);
    expect(got.body.project.id).toBe(projectId);
    expect(overview.status).toBe(200);
    expect(overview.body.project.id).toBe(projectId);
    expect(overview.body.overview).toEqual({
      status: 'ready',
      statusLabel: 'Ready',
      counts: {
        files: 0,
        sheets: 0,
        regions: 0,
        vectors: 0,
        vectorChunks: 0,
        normalizedRegions: 0,
        specifications: 0,
        docs: 0,
      },
      disciplines: [],
      latestJob: null,
      nextAction: 'upload',
      capabilities: {
        canCreateJob: true,
        canUpload: true,
        canSearch: true,
        canVectorize: false,
        canNormalize: false,
      },
    });
  });

  it('reports provisioning in the overview while the project is provisioned', async () => {
    // Prepare: a project recorded as the create endpoint does, whose provisioning has not finished.
    const record = provisioningRecord(org.orgId, uniqueName('Fresh'));
    await projectStore().createWithCharge({
      orgId: org.orgId,
      project: record,
      price: 100,
      ledgerEntryId: record.charge.ledgerEntryId,
    });

    // Act
    const overview = await api(`/api/open/v1/projects/${record.id}/overview`, { key: org.apiKey });

    // Assess
    expect(overview.body.project.status).toBe('provisioning');
    expect(overview.body.overview).toMatchObject({ status: 'provisioning', nextAction: 'wait' });
    expect(overview.body.overview.capabilities.canCreateJob).toBe(false);
  });

  it('does not hold a project `processing` for a job nothing was registered to; a registration does', async () => {
    // Prepare: a client that created a job and then stopped (a typo in a path, a crash).
    const created = await createProject(org.apiKey, uniqueName('Abandoned job'));
    const projectId = created.body.project.id;
    await waitForProject(org.apiKey, projectId);
    const job = await api(`/api/open/v1/projects/${projectId}/jobs`, {
      method: 'POST',
      key: org.apiKey,
      body: { displayName: 'Never uploaded' },
    });

    // Act
    const empty = await api(`/api/open/v1/projects/${projectId}/overview`, { key: org.apiKey });
    await api(`/api/open/v1/jobs/${job.body.job.id}/uploads`, {
      method: 'POST',
      key: org.apiKey,
      body: {
        files: [
          { fileName: 'a.pdf', contentType: 'application/pdf', fileSize: 1000, sha256: 'a'.repeat(64) },
        ],
      },
    });
    const registered = await api(`/api/open/v1/projects/${projectId}/overview`, { key: org.apiKey });

    // Assess
    expect(job.status).toBe(201);
    expect(empty.body.overview).toMatchObject({
      status: 'ready',
      nextAction: 'upload',
      latestJob: { id: job.body.job.id, status: 'awaiting_uploads' },
    });
    expect(registered.body.overview).toMatchObject({
      status: 'processing',
      nextAction: 'wait',
      latestJob: { id: job.body.job.id, status: 'uploading' },
    });
  });

  it('lists projects newest first with cursor pagination and matching totals', async () => {
    const own = await createOrg(10_000);
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await createProject(own.apiKey, `Listing ${i}`)).body.project.id);

    const seen: string[] = [];
    let cursor: string | null = null;
    const totals: number[] = [];
    let pages = 0;
    do {
      const query: string = cursor ? `?limit=2&cursor=${encodeURIComponent(cursor)}` : '?limit=2';
      const page = await api(`/api/open/v1/projects${query}`, { key: own.apiKey });
      expect(page.status).toBe(200);
      expect(page.body.limit).toBe(2);
      expect(page.body.cursor).toBe(cursor);
      expect(page.body.returnedCount).toBe(page.body.projects.length);
      expect(page.body.hasMore).toBe(page.body.nextCursor !== null);
      expect(page.body.pageInfo).toEqual({
        startCursor: cursor,
        endCursor: page.body.nextCursor,
        hasPreviousPage: cursor !== null,
        hasNextPage: page.body.nextCursor !== null,
      });
      totals.push(page.body.total);
      seen.push(...page.body.projects.map((project: { id: string }) => project.id));
      cursor = page.body.nextCursor;
      pages++;
    } while (cursor);

    expect(pages).toBe(3);
    expect(totals).toEqual([5, 5, 5]);
    expect(seen).toEqual([...ids].reverse());
  });

  it('includes each project overview with include=overview', async () => {
    const own = await createOrg(10_000);
    const created = await createProject(own.apiKey, 'With overview');
    await waitForProject(own.apiKey, created.body.project.id);

    const page = await api('/api/open/v1/projects?include=overview', { key: own.apiKey });

    expect(page.status).toBe(200);
    expect(page.body.projects[0].overview).toMatchObject({ status: 'ready', nextAction: 'upload' });
    const plain = await api('/api/open/v1/projects', { key: own.apiKey });
    expect(plain.body.projects[0].overview).toBeUndefined();
  });

  it('refuses a name already used in the organization, ignoring case', async () => {
    const name = uniqueName('Library');
    expect((await createProject(org.apiKey, name)).status).toBe(202);
    const balance = await organizationStore().balance(org.orgId);

    const again = await createProject(org.apiKey, `  ${name.toUpperCase()} `);

    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('project_name_conflict');
    expect(await organizationStore().balance(org.orgId)).toBe(balance);
  });

  it('allows the same name in another organization', async () => {
    const name = uniqueName('Shared name');
    const other = await createOrg(1_000);
    expect((await createProject(org.apiKey, name)).status).toBe(202);
    expect((await createProject(other.apiKey, name)).status).toBe(202);
  });

  it('refuses names that are too long, empty or not strings, naming the field', async () => {
    const tooLong = await createProject(org.apiKey, 'x'.repeat(181));
    const longest = await createProject(org.apiKey, `${uniqueName('y')}${'y'.repeat(160)}`.slice(0, 180));
    const empty = await createProject(org.apiKey, '   ');
    const missing = await api('/api/open/v1/projects', { method: 'POST', key: org.apiKey, body: {} });
    const unknown = await api('/api/open/v1/projects', {
      method: 'POST',
      key: org.apiKey,
      body: { name: uniqueName('ok'), color: 'red' },
    });

    expect(tooLong.status).toBe(400);
    expect(tooLong.body.error.code).toBe('invalid_request');
    expect(tooLong.body.error.message).toContain('name');
    expect(tooLong.body.error.message).toContain('180');
    expect(longest.status).toBe(202);
    expect(empty.status).toBe(400);
    expect(empty.body.error.message).toContain('name');
    expect(missing.status).toBe(400);
    expect(missing.body.error.fields[0].field).toBe('name');
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.message).toContain('color');
  });

  it('refuses creation without enough credits and writes nothing', async () => {
    // Prepare
    const poor = await createOrg(50);
    const ledgerBefore = await organizationStore().ledger(poor.orgId);

    // Act
    const refused = await createProject(poor.apiKey, 'Too expensive');

    // Assess
    expect(refused.status).toBe(402);
    expect(refused.body.error).toMatchObject({
      code: 'insufficient_credits',
      requiredCredits: 100,
      availableCredits: 50,
    });
    const list = await api('/api/open/v1/projects', { key: poor.apiKey });
    expect(list.body.total).toBe(0);
    expect(list.body.projects).toEqual([]);
    expect(await organizationStore().balance(poor.orgId)).toBe(50);
    expect(await organizationStore().ledger(poor.orgId)).toEqual(ledgerBefore);
    // The name was not reserved either.
    const guard = await dynamo.send(
      new GetCommand({
        TableName: process.env.TABLE_NAME,
        Key: entities.projectName.key(poor.orgId, 'Too expensive'),
      }),
    );
    expect(guard.Item).toBeUndefined();
  });

  it('answers malformed JSON, wrong media types and oversized bodies in the error envelope', async () => {
    const malformed = await api('/api/open/v1/projects', {
      method: 'POST',
      key: org.apiKey,
      rawBody: '{"name": "unterminated',
      headers: { 'content-type': 'application/json' },
    });
    const notJson = await api('/api/open/v1/projects', {
      method: 'POST',
      key: org.apiKey,
      rawBody: 'name=x',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    const huge = await api('/api/open/v1/projects', {
      method: 'POST',
      key: org.apiKey,
      body: { name: 'x'.repeat(2 * 1024 * 1024) },
    });
    const array = await api('/api/open/v1/projects', { method: 'POST', key: org.apiKey, body: ['x'] });

    expect(malformed.status).toBe(400);
    expect(malformed.body.error.code).toBe('invalid_json');
    expect(notJson.status).toBe(415);
    expect(notJson.body.error.code).toBe('unsupported_media_type');
    expect(huge.status).toBe(413);
    expect(huge.body.error.code).toBe('payload_too_large');
    expect(array.status).toBe(400);
    expect(array.body.error.code).toBe('invalid_request');
  });

  it('refuses bad list parameters', async () => {
    const tooBig = await api('/api/open/v1/projects?limit=101', { key: org.apiKey });
    const notNumber = await api('/api/open/v1/projects?limit=ten', { key: org.apiKey });
    const unknown = await api('/api/open/v1/projects?sort=name', { key: org.apiKey });
    const twice = await api('/api/open/v1/projects?limit=1&limit=2', { key: org.apiKey });
    const include = await api('/api/open/v1/projects?include=everything', { key: org.apiKey });

    for (const reply of [tooBig, notNumber, unknown, twice, include]) {
      expect(reply.status).toBe(400);
      expect(reply.body.error.code).toBe('invalid_request');
    }
    expect(tooBig.body.error.message).toContain('limit');
    expect(unknown.body.error.message).toContain('sort');
    expect(twice.body.error.message).toContain('more than once');
  });

  it('answers unknown routes with 404 and wrong methods with 405, in the envelope', async () => {
    const unknown = await api('/api/open/v1/nothing-here', { key: org.apiKey });
    const wrongMethod = await api('/api/open/v1/projects', { method: 'DELETE', key: org.apiKey });

    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('route_not_found');
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.body.error.code).toBe('method_not_allowed');
    expect(wrongMethod.headers.get('allow')).toBe('POST, GET, HEAD');
  });
});
