import { beforeAll, describe, expect, it } from 'vitest';
import { ROUTES, type RouteDefinition, STREAM_ROUTE } from '../../functions/shared/routes.ts';
import { sha256Hex, specificationPdf } from '../fixtures/pdfs.ts';
import { api, createOrg, createProject, type TestOrg, waitForProject } from './helpers.ts';

/**
 * The cross-organization matrix: every route of the route table (new routes are covered by
 * enumeration), called by organization B with organization A's real ids, cursors, upload tokens and
 * artifact paths. B gets 400/401/404 and never a byte of A's data; A's resources are unchanged.
 */
describe('organization isolation on every route', () => {
  let owner: TestOrg;
  let intruder: TestOrg;
  const real: Record<string, string> = {};
  let secrets: string[] = [];

  beforeAll(async () => {
    owner = await createOrg(100_000);
    intruder = await createOrg(100_000);
    const key = owner.apiKey;
    const name = `Owned ${Date.now()}`;
    const projectId = String((await createProject(key, name)).body.project.id);
    await createProject(key, `${name} second`);
    await waitForProject(key, projectId);
    const job = await api(`/api/open/v1/projects/${projectId}/jobs`, { method: 'POST', key, body: {} });
    const jobId = String(job.body.job.id);
    Object.assign(real, { projectId, jobId });
    const bytes = await specificationPdf();
    const registered = await api(`/api/open/v1/jobs/${jobId}/uploads`, {
      method: 'POST',
      key,
      body: {
        files: [
          {
            fileName: 'a.pdf',
            contentType: 'application/pdf',
            fileSize: bytes.length,
            sha256: sha256Hex(bytes),
          },
        ],
      },
    });
    const documentId = String(registered.body.uploads[0].documentId);
    const uploadToken = String(registered.body.uploads[0].uploadToken);
    const cursor = String((await api('/api/open/v1/projects?limit=1', { key })).body.nextCursor);
    Object.assign(real, { documentId, uploadToken, cursor, keyId: owner.keyId, specId: documentId });
    real.sheetId = `sht_${documentId.slice(4)}_1`;
    secrets = [name, uploadToken, cursor];
  });

  const pathOf = (route: RouteDefinition) =>
    route.path.replace(/\{([^}]+)\}/g, (_match, param: string) =>
      encodeURIComponent(real[param] ?? 'rev_00000000000000000000000001'),
    );

  function callAsIntruder(route: RouteDefinition) {
    const headers: Record<string, string> = { accept: 'application/x-ndjson' };
    const query = route.path.endsWith('/artifact')
      ? `?path=${encodeURIComponent(real.uploadToken ?? '')}`
      : route.method === 'GET'
        ? `?cursor=${encodeURIComponent(real.cursor ?? '')}`
        : '';
    const body =
      route.id === 'completeUploads'
        ? { directUploads: [{ documentId: real.documentId, uploadToken: real.uploadToken }] }
        : route.id === 'registerUploads'
          ? {
              files: [
                { fileName: 'x.pdf', contentType: 'application/pdf', fileSize: 1, sha256: 'a'.repeat(64) },
              ],
            }
          : route.method === 'GET'
            ? undefined
            : {};
    return api(`${pathOf(route)}${query}`, {
      method: route.method,
      headers,
      ...(route.auth === 'session' ? { cookie: intruder.sessionToken } : { key: intruder.apiKey }),
      ...(body === undefined ? {} : { body }),
    });
  }

  it.each([...ROUTES, STREAM_ROUTE] as RouteDefinition[])(
    "$id gives another organization's caller no access and no data",
    async (route) => {
      // Act
      const reply = await callAsIntruder(route);

      // Assess
      const text = JSON.stringify(reply.body);
      for (const secret of secrets) expect(text).not.toContain(secret);
      // Routes without a path id answer with the intruder's own data (its listings, its new project):
      // none of A's; routes with one refuse.
      expect(text).not.toContain(real.projectId);
      expect(text).not.toContain(real.jobId);
      const allowed = route.path.includes('{') ? [400, 404] : [200, 201, 202, 400, 404];
      expect(allowed, `${route.id}: ${reply.status}`).toContain(reply.status);
    },
  );

  it("leaves the owner's resources as they were", async () => {
    const project = await api(`/api/open/v1/projects/${real.projectId}`, { key: owner.apiKey });
    const files = await api(`/api/open/v1/jobs/${real.jobId}/files`, { key: owner.apiKey });
    const keys = await api('/api/open-api/keys', { cookie: owner.sessionToken });
    expect(project.body.project.status).toBe('ready');
    expect(files.body.files).toEqual([
      expect.objectContaining({ uploadStatus: 'pending', status: 'processing' }),
    ]);
    expect(keys.body.keys.find((listed: { id: string }) => listed.id === owner.keyId)?.revokedAt).toBeNull();
  });
});
