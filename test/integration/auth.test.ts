import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ROUTES } from '../../functions/shared/routes.ts';
import { credentialsBanner } from '../../local/credentials-banner.ts';
import { REPO_ROOT } from '../../local/lambda.ts';
import {
  type ApiReply,
  api,
  apiUrl,
  createOrg,
  createProject,
  type TestOrg,
  uniqueName,
  waitForProject,
} from './helpers.ts';
import { STACK_SETTINGS } from './stack-settings.ts';

const FAKE_PROJECT = 'prj_00000000000000000000000000';

const ids = { jobId: 'job_00000000000000000000000000' };

function concretePath(path: string, projectId: string, keyId: string): string {
  const concrete = path
    .replace('{projectId}', projectId)
    .replace('{keyId}', keyId)
    .replace('{jobId}', ids.jobId)
    .replace('{sheetId}', 'sht_00000000000000000000000000_1')
    .replace('{specId}', 'doc_00000000000000000000000000');
  // Routes whose query has a required member get a well-formed one: only ownership decides the answer.
  if (concrete.endsWith('/artifact')) return `${concrete}?path=not-issued`;
  if (concrete.endsWith('/sources'))
    return `${concrete}?uri=${encodeURIComponent(`service://projects/${projectId}/regions/reg_00000000000000000000000000_1_0`)}`;
  return concrete;
}

function bodyFor(routeId: string): unknown {
  if (routeId === 'createProject') return { name: uniqueName('auth') };
  if (routeId === 'createApiKey') return { label: 'x', scopes: ['jobs:read'] };
  if (routeId === 'createJob') return {};
  if (routeId === 'searchSources' || routeId === 'searchProjects') return { query: 'gypsum board' };
  if (routeId === 'registerUploads') {
    return {
      files: [{ fileName: 'a.pdf', contentType: 'application/pdf', fileSize: 10, sha256: 'a'.repeat(64) }],
    };
  }
  if (routeId === 'completeUploads') return { directUploads: [{ documentId: 'doc_x', uploadToken: 'x' }] };
  if (routeId === 'createReview') return { name: 'Isolation' };
  if (routeId === 'askReviewQuestion') return { question: 'Who pays the permit fees?' };
  return undefined;
}

describe('authentication, scopes and organization isolation', () => {
  let org: TestOrg;
  let other: TestOrg;
  let projectId: string;

  beforeAll(async () => {
    org = await createOrg();
    other = await createOrg();
    projectId = (await createProject(org.apiKey, uniqueName('Owned'))).body.project.id;
    await waitForProject(org.apiKey, projectId);
    ids.jobId = (
      await api(`/api/open/v1/projects/${projectId}/jobs`, { method: 'POST', key: org.apiKey, body: {} })
    ).body.job.id;
  });

  const keyRoutes = ROUTES.filter((route) => route.auth === 'apiKey');
  const sessionRoutes = ROUTES.filter((route) => route.auth === 'session');

  it.each(keyRoutes)('$id refuses a missing or malformed key with 401', async (route) => {
    const path = concretePath(route.path, projectId, 'none');
    const missing = await api(path, { method: route.method, body: bodyFor(route.id) });
    const garbage = await api(path, { method: route.method, key: 'not-a-key', body: bodyFor(route.id) });
    const forged = await api(path, {
      method: route.method,
      key: `${org.apiKey.slice(0, -4)}AAAA`,
      body: bodyFor(route.id),
    });

    for (const reply of [missing, garbage, forged]) {
      expect(reply.status).toBe(401);
      expect(reply.body.error.code).toBe('unauthorized');
    }
  });

  describe('revoked keys', () => {
    // Each route's own key: used once (the route's function keeps it, verified), then revoked; the
    // functions keep a key at most the revocation bound, which the tests wait out once for all routes.
    const used = new Map<string, { key: string; before: number; revoked: ApiReply }>();
    beforeAll(async () => {
      for (const route of keyRoutes) {
        const key = await org.keyWith([route.scope as never]);
        const path = concretePath(route.path, projectId, 'none');
        const before = await api(path, { method: route.method, key, body: bodyFor(route.id) });
        const revoked = await api(`/api/open-api/keys/${key.split('_')[1]}/revoke`, {
          method: 'POST',
          cookie: org.sessionToken,
        });
        used.set(route.id, { key, before: before.status, revoked });
      }
      await new Promise((resolve) => setTimeout(resolve, STACK_SETTINGS.API_KEY_CACHE_SECONDS * 1000 + 200));
    }, 120_000);

    it.each(keyRoutes)('$id refuses a revoked key with 401 within the revocation bound', async (route) => {
      const { key, before, revoked } = used.get(route.id) as {
        key: string;
        before: number;
        revoked: ApiReply;
      };

      const after = await api(concretePath(route.path, projectId, 'none'), {
        method: route.method,
        key,
        body: bodyFor(route.id),
      });

      // Before revocation the key gets past authentication (whatever the route then answers).
      expect([401, 403]).not.toContain(before);
      expect(revoked.status).toBe(200);
      expect(revoked.body.key.revokedAt).toEqual(expect.any(String));
      expect(after.status).toBe(401);
      expect(after.body.error.code).toBe('unauthorized');
    });
  });

  it.each(keyRoutes)('$id refuses a key without its scope with 403 naming the scope', async (route) => {
    const others = ['projects:write', 'jobs:read', 'jobs:write', 'reviews:read'].filter(
      (scope) => scope !== route.scope,
    );
    const key = await org.keyWith(others as never);
    const reply = await api(concretePath(route.path, projectId, 'none'), {
      method: route.method,
      key,
      body: bodyFor(route.id),
    });

    expect(reply.status).toBe(403);
    expect(reply.body.error.code).toBe('scope_required');
    expect(reply.body.error.scope).toBe(route.scope);
    expect(reply.body.error.message).toContain(route.scope);
  });

  it.each(keyRoutes.filter((route) => route.path.includes('{projectId}')))(
    "$id answers another organization's project with 404, as if it did not exist",
    async (route) => {
      const foreign = await api(concretePath(route.path, projectId, 'none'), {
        method: route.method,
        key: other.apiKey,
        body: bodyFor(route.id),
      });
      const absent = await api(concretePath(route.path, FAKE_PROJECT, 'none'), {
        method: route.method,
        key: other.apiKey,
        body: bodyFor(route.id),
      });
      const junk = await api(concretePath(route.path, '..%2F..%2Fetc', 'none'), {
        method: route.method,
        key: other.apiKey,
        body: bodyFor(route.id),
      });

      expect(foreign.status).toBe(404);
      expect(absent.status).toBe(404);
      expect(junk.status).toBe(404);
      expect(foreign.body.error).toEqual({ ...absent.body.error, requestId: foreign.body.error.requestId });
    },
  );

  it.each(keyRoutes.filter((route) => route.path.includes('{jobId}')))(
    "$id answers another organization's job with 404, as if it did not exist",
    async (route) => {
      const path = concretePath(route.path, projectId, 'none');
      const foreign = await api(path, { method: route.method, key: other.apiKey, body: bodyFor(route.id) });
      const absent = await api(path.replace(ids.jobId, 'job_00000000000000000000000000'), {
        method: route.method,
        key: other.apiKey,
        body: bodyFor(route.id),
      });
      expect(foreign.status).toBe(404);
      expect(foreign.body.error.code).toBe('job_not_found');
      expect(absent.body.error.code).toBe('job_not_found');
    },
  );

  it("prints npm start's credentials as the README's walkthrough uses them: the pasted session is accepted", async () => {
    // Prepare: the README's walkthrough, as a shell reads it, and the lines npm start prints.
    const readme = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8');
    const cookieHeader = /-H "Cookie: (service_session=\$SESSION)"/.exec(readme)?.[1] ?? '';
    const banner = credentialsBanner(apiUrl, { apiKey: org.apiKey, sessionToken: org.sessionToken });

    // Act: paste the export line, then send the header the README writes.
    const session = /export [^\n]*\bSESSION=(\S+)/.exec(banner)?.[1] ?? '';
    const cookie = cookieHeader.replace('$SESSION', session);
    const listed = await fetch(`${apiUrl}/api/open-api/keys`, { headers: { cookie } });

    // Assess
    expect(cookieHeader).toBe('service_session=$SESSION');
    expect(session).toBe(org.sessionToken);
    expect(banner).not.toContain(`service_session=${org.sessionToken}`);
    expect(listed.status).toBe(200);
  });

  it('matches the Bearer scheme case-insensitively (RFC 9110), and still refuses a malformed header', async () => {
    // Act
    const replies = await Promise.all(
      ['bearer', 'BEARER', 'Bearer', 'BeArEr'].map((scheme) =>
        api('/api/open/v1/projects', { headers: { authorization: `${scheme} ${org.apiKey}` } }),
      ),
    );
    const malformed = await Promise.all(
      [`Basic ${org.apiKey}`, `Bearer${org.apiKey}`, `Bearer ${org.apiKey} extra`].map((authorization) =>
        api('/api/open/v1/projects', { headers: { authorization } }),
      ),
    );
    // Assess
    expect(replies.map((reply) => reply.status)).toEqual([200, 200, 200, 200]);
    expect(malformed.map((reply) => reply.status)).toEqual([401, 401, 401]);
  });

  it("answers HEAD on a GET route with the GET's status and headers and no body; 405 names HEAD beside GET", async () => {
    // Prepare
    const project = (await createProject(org.apiKey, uniqueName('head'))).body.project.id as string;
    const head = (path: string) =>
      fetch(`${apiUrl}${path}`, { method: 'HEAD', headers: { authorization: `Bearer ${org.apiKey}` } });
    // Act
    const found = await head(`/api/open/v1/projects/${project}`);
    const missing = await head(`/api/open/v1/projects/${FAKE_PROJECT}`);
    const unauthenticated = await fetch(`${apiUrl}/api/open/v1/projects`, { method: 'HEAD' });
    const wrongMethod = await api(`/api/open/v1/projects/${project}`, { method: 'PUT', key: org.apiKey });
    // Assess
    expect([found.status, found.headers.get('content-type'), await found.text()]).toEqual([
      200,
      'application/json; charset=utf-8',
      '',
    ]);
    expect(Number(found.headers.get('content-length'))).toBeGreaterThan(0);
    expect([missing.status, await missing.text()]).toEqual([404, '']);
    expect(unauthenticated.status).toBe(401);
    expect([wrongMethod.status, wrongMethod.body.error.code]).toEqual([405, 'method_not_allowed']);
    expect(wrongMethod.headers.get('allow')).toBe('GET, HEAD');
  });

  it("does not list another organization's projects", async () => {
    const theirs = await api('/api/open/v1/projects', { key: other.apiKey });
    expect(theirs.body.projects.map((project: { id: string }) => project.id)).not.toContain(projectId);
  });

  it.each(sessionRoutes)(
    '$id refuses bearer keys and missing or unknown sessions with 401',
    async (route) => {
      const path = concretePath(route.path, projectId, org.keyId);
      const withKey = await api(path, { method: route.method, key: org.apiKey, body: bodyFor(route.id) });
      const withBoth = await api(path, {
        method: route.method,
        key: org.apiKey,
        cookie: org.sessionToken,
        body: bodyFor(route.id),
      });
      const none = await api(path, { method: route.method, body: bodyFor(route.id) });
      const unknown = await api(path, {
        method: route.method,
        cookie: 'forged-session',
        body: bodyFor(route.id),
      });

      for (const reply of [withKey, withBoth, none, unknown]) {
        expect(reply.status).toBe(401);
        expect(reply.body.error.code).toBe('unauthorized');
      }
    },
  );

  it("cannot revoke another organization's key (404) and revoking twice keeps the first time", async () => {
    const foreign = await api(`/api/open-api/keys/${org.keyId}/revoke`, {
      method: 'POST',
      cookie: other.sessionToken,
    });
    expect(foreign.status).toBe(404);
    expect(foreign.body.error.code).toBe('api_key_not_found');

    const key = await org.keyWith(['jobs:read']);
    const keyId = key.split('_')[1];
    const first = await api(`/api/open-api/keys/${keyId}/revoke`, {
      method: 'POST',
      cookie: org.sessionToken,
    });
    const second = await api(`/api/open-api/keys/${keyId}/revoke`, {
      method: 'POST',
      cookie: org.sessionToken,
    });
    expect(second.status).toBe(200);
    expect(second.body.key.revokedAt).toBe(first.body.key.revokedAt);
  });

  it('creates keys whose secret is shown once and never listed', async () => {
    const created = await api('/api/open-api/keys', {
      method: 'POST',
      cookie: org.sessionToken,
      body: { label: 'CI pipeline', scopes: ['jobs:read', 'jobs:write'] },
    });
    const listed = await api('/api/open-api/keys?limit=100', { cookie: org.sessionToken });

    expect(created.status).toBe(201);
    expect(created.body.secret).toMatch(/^psk_[a-z0-9]{16}_[A-Za-z0-9_-]{43}$/);
    expect(created.body.key).toMatchObject({
      label: 'CI pipeline',
      scopes: ['jobs:read', 'jobs:write'],
      hashVersion: 'sha256-v1',
      revokedAt: null,
      keyPrefix: created.body.secret.split('_').slice(0, 2).join('_'),
    });
    const text = JSON.stringify(listed.body);
    // The secret part is everything after the prefix: base64url, so it may itself contain `_`.
    expect(text).not.toContain(created.body.secret.split('_').slice(2).join('_'));
    expect(text).not.toContain('secretHash');
    expect(listed.body.keys.map((key: { id: string }) => key.id)).toContain(created.body.key.id);
    expect(listed.body.total).toBe(listed.body.keys.length);
    const otherList = await api('/api/open-api/keys', { cookie: other.sessionToken });
    expect(otherList.body.keys.map((key: { id: string }) => key.id)).not.toContain(created.body.key.id);
  });

  it("caps a key's request rate at what the organization's plan allows", async () => {
    const above = await api('/api/open-api/keys', {
      method: 'POST',
      cookie: org.sessionToken,
      body: { label: 'greedy', rateLimitPerMinute: 100_000 },
    });
    const within = await api('/api/open-api/keys', {
      method: 'POST',
      cookie: org.sessionToken,
      body: { label: 'modest', rateLimitPerMinute: 6_000 },
    });
    expect(above.status).toBe(400);
    expect(above.body.error).toMatchObject({
      code: 'rate_limit_above_plan',
      maxRateLimitPerMinute: 6_000,
      plan: 'standard',
    });
    expect(within.status).toBe(201);
  });

  it('refuses invalid key creation input naming the field', async () => {
    const badScope = await api('/api/open-api/keys', {
      method: 'POST',
      cookie: org.sessionToken,
      body: { label: 'x', scopes: ['admin'] },
    });
    const pastExpiry = await api('/api/open-api/keys', {
      method: 'POST',
      cookie: org.sessionToken,
      body: { label: 'x', expiresAt: '2001-01-01T00:00:00Z' },
    });
    expect(badScope.status).toBe(400);
    expect(badScope.body.error.message).toContain('scopes');
    expect(pastExpiry.status).toBe(400);
    expect(pastExpiry.body.error.message).toContain('expiresAt');
  });

  it('records when and from where a key was last used', async () => {
    const key = await org.keyWith(['jobs:read']);
    // A client's own CloudFront-Viewer-Address is replaced by the edge (here the local server), as CloudFront does.
    await api('/api/open/v1/projects', { key, headers: { 'cloudfront-viewer-address': '203.0.113.7:4431' } });
    const listed = await api('/api/open-api/keys?limit=100', { cookie: org.sessionToken });
    const record = listed.body.keys.find((candidate: { id: string }) => candidate.id === key.split('_')[1]);
    expect(record.lastUsedAt).toEqual(expect.any(String));
    expect(record.lastUsedIp).toBe('127.0.0.1');
  });
});

describe('cursors', () => {
  it('refuses forged, altered, cross-endpoint and cross-tenant cursors with 400', async () => {
    const org = await createOrg();
    const other = await createOrg();
    for (let i = 0; i < 3; i++) await createProject(org.apiKey, `Cursor ${i}`);
    for (let i = 0; i < 3; i++) await createProject(other.apiKey, `Cursor ${i}`);
    await org.keyWith(['jobs:read']);
    await org.keyWith(['jobs:read']);
    const page = await api('/api/open/v1/projects?limit=1', { key: org.apiKey });
    const cursor: string = page.body.nextCursor;
    const keyPage = await api('/api/open-api/keys?limit=1', { cookie: org.sessionToken });
    const [payload, signature] = cursor.split('.') as [string, string];
    const decoded = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    const tampered = Buffer.from(JSON.stringify({ ...decoded, o: other.orgId })).toString('base64url');

    const attempts = [
      'garbage',
      `${payload}.${signature.slice(0, -2)}AA`,
      `${tampered}.${signature}`,
      `${payload}`,
      `${cursor}.extra`,
      keyPage.body.nextCursor as string,
    ];
    for (const attempt of attempts) {
      const reply = await api(`/api/open/v1/projects?limit=1&cursor=${encodeURIComponent(attempt)}`, {
        key: org.apiKey,
      });
      expect(reply.status).toBe(400);
      expect(reply.body.error.code).toBe('invalid_cursor');
    }
    const crossTenant = await api(`/api/open/v1/projects?limit=1&cursor=${encodeURIComponent(cursor)}`, {
      key: other.apiKey,
    });
    expect(crossTenant.status).toBe(400);
    expect(crossTenant.body.error.code).toBe('invalid_cursor');
    const valid = await api(`/api/open/v1/projects?limit=1&cursor=${encodeURIComponent(cursor)}`, {
      key: org.apiKey,
    });
    expect(valid.status).toBe(200);
  });
});

describe('rate limiting', () => {
  it('answers 429 with Retry-After once a key exceeds its limit', async () => {
    const org = await createOrg();
    const created = await api('/api/open-api/keys', {
      method: 'POST',
      cookie: org.sessionToken,
      body: { label: 'throttled', scopes: ['jobs:read'], rateLimitPerMinute: 3 },
    });
    const key = created.body.secret;

    // Seven requests within at most two one-minute windows of three: at least one is refused.
    const replies = [];
    for (let i = 0; i < 7; i++) replies.push(await api('/api/open/v1/projects', { key }));

    expect(replies.slice(0, 3).map((reply) => reply.status)).toEqual([200, 200, 200]);
    const limited = replies.find((reply) => reply.status !== 200);
    expect(limited?.status).toBe(429);
    expect(limited?.body.error.code).toBe('rate_limited');
    const retryAfter = Number(limited?.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    // Another key of the same organization is not affected.
    expect((await api('/api/open/v1/projects', { key: org.apiKey })).status).toBe(200);
  });
});
