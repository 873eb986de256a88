import { inject } from 'vitest';
import type { Scope } from '../../functions/core/auth/scopes.ts';
import { issueCredentials, seedOrganization } from '../../local/seed.ts';

export const apiUrl = inject('apiUrl');

export interface ApiCall {
  method?: string;
  key?: string;
  cookie?: string;
  body?: unknown;
  rawBody?: string;
  headers?: Record<string, string>;
}

export interface ApiReply {
  status: number;
  headers: Headers;
  // biome-ignore lint/suspicious/noExplicitAny: tests inspect arbitrary JSON
  body: any;
}

export async function api(path: string, call: ApiCall = {}): Promise<ApiReply> {
  const headers: Record<string, string> = { ...call.headers };
  if (call.key) headers.authorization = `Bearer ${call.key}`;
  if (call.cookie) headers.cookie = `service_session=${call.cookie}`;
  let body: string | undefined = call.rawBody;
  if (call.body !== undefined) {
    body = JSON.stringify(call.body);
    headers['content-type'] ??= 'application/json';
  }
  const response = await fetch(`${apiUrl}${path}`, { method: call.method ?? 'GET', headers, body });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // not JSON: keep the text
  }
  return { status: response.status, headers: response.headers, body: parsed };
}

export interface TestOrg {
  orgId: string;
  apiKey: string;
  keyId: string;
  sessionToken: string;
  userId: string;
  /** Another key of the same organization with only these scopes. */
  keyWith(scopes: Scope[]): Promise<string>;
}

export async function createOrg(credits = 10_000): Promise<TestOrg> {
  const orgId = await seedOrganization({ name: 'Test org', credits });
  const credentials = await issueCredentials({ orgId });
  return {
    orgId,
    ...credentials,
    keyWith: async (scopes) => {
      const created = await api('/api/open-api/keys', {
        method: 'POST',
        cookie: credentials.sessionToken,
        body: {
          label: `only ${scopes.join(' ') || 'nothing'}`,
          scopes: scopes.length ? scopes : ['reviews:read'],
        },
      });
      if (created.status !== 201) throw new Error(`key creation failed: ${JSON.stringify(created.body)}`);
      return created.body.secret as string;
    },
  };
}

export async function createProject(key: string, name: string): Promise<ApiReply> {
  return api('/api/open/v1/projects', { method: 'POST', key, body: { name } });
}

export async function waitForProject(key: string, projectId: string, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const reply = await api(`/api/open/v1/projects/${projectId}`, { key });
    if (reply.body?.project?.status !== 'provisioning') return reply.body.project;
    if (Date.now() > deadline)
      throw new Error(`project ${projectId} still provisioning after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

export function uniqueName(prefix: string): string {
  return `${prefix} ${Math.random().toString(36).slice(2, 10)}`;
}
