import { createHash } from 'node:crypto';
import { inject } from 'vitest';
import type { Scope } from '../../functions/core/auth/scopes.ts';
import { newProjectRecord } from '../../functions/core/projects/create-project.ts';
import type { ProjectRecord } from '../../functions/core/projects/model.ts';
import { ErrorEnvelopeSchema } from '../../functions/shared/http/params.ts';
import { matchPath } from '../../functions/shared/route-matching.ts';
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
  checkAgainstContract(call.method ?? 'GET', path, response, parsed);
  return { status: response.status, headers: response.headers, body: parsed };
}

/**
 * Every JSON reply of every integration test is checked against the route's zod contract (the
 * one the OpenAPI document is generated from): a 2xx against the schema of its status, which the
 * contract must declare; an error against the error envelope.
 */
function checkAgainstContract(method: string, path: string, response: Response, body: unknown): void {
  const pathname = new URL(path, 'http://localhost').pathname;
  const where = `${method} ${pathname} -> ${response.status}`;
  if (response.status >= 400) {
    const parsed = ErrorEnvelopeSchema.safeParse(body);
    if (!parsed.success) throw new Error(`${where}: not the error envelope: ${JSON.stringify(body)}`);
    return;
  }
  const route = matchPath(pathname).find((candidate) => candidate.route.method === method)?.route;
  if (!route) return; // the stream (not an API route) and artifact redirects
  const declared = route.responses[response.status];
  if (!declared) throw new Error(`${where}: status not declared in the contract of ${route.id}`);
  if (!declared.schema) return; // raw bytes (artifact downloads)
  const parsed = declared.schema.safeParse(body);
  if (!parsed.success) {
    throw new Error(`${where}: body does not match the contract: ${parsed.error.message.slice(0, 2000)}`);
  }
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

export async function createOrg(
  credits = 10_000,
  plan: 'standard' | 'enterprise' = 'standard',
): Promise<TestOrg> {
  const orgId = await seedOrganization({ name: 'Test org', credits, plan });
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

/** A project as the create endpoint records it (charged, `provisioning`), for tests that drive provisioning themselves. */
export function provisioningRecord(orgId: string, name: string): ProjectRecord {
  return newProjectRecord({ orgId, name, price: 100 });
}

/** A new organization with a ready project and an empty job in it. */
export async function createOrgWithJob(
  projectName: string,
): Promise<{ org: TestOrg; projectId: string; jobId: string }> {
  const org = await createOrg();
  const projectId = String((await createProject(org.apiKey, projectName)).body.project.id);
  await waitForProject(org.apiKey, projectId);
  const job = await api(`/api/open/v1/projects/${projectId}/jobs`, {
    method: 'POST',
    key: org.apiKey,
    body: {},
  });
  return { org, projectId, jobId: String(job.body.job.id) };
}

export interface FileToIngest {
  fileName: string;
  bytes: Uint8Array;
  classification?: string;
}

/** Creates a job, registers and PUTs small files (direct uploads), completes them and returns the job id. */
export async function startIngest(key: string, projectId: string, files: FileToIngest[]): Promise<string> {
  const created = await api(`/api/open/v1/projects/${projectId}/jobs`, { method: 'POST', key, body: {} });
  const jobId = String(created.body.job.id);
  const registered = await api(`/api/open/v1/jobs/${jobId}/uploads`, {
    method: 'POST',
    key,
    body: {
      files: files.map((file) => ({
        fileName: file.fileName,
        contentType: 'application/pdf',
        fileSize: file.bytes.length,
        sha256: createHash('sha256').update(file.bytes).digest('hex'),
        ...(file.classification ? { classification: file.classification } : {}),
      })),
    },
  });
  const uploads = registered.body.uploads as {
    documentId: string;
    uploadUrl: string;
    uploadHeaders: Record<string, string>;
    uploadToken: string;
  }[];
  for (const [index, upload] of uploads.entries()) {
    const response = await fetch(upload.uploadUrl, {
      method: 'PUT',
      headers: upload.uploadHeaders,
      body: files[index]?.bytes,
    });
    if (response.status !== 200) throw new Error(`PUT answered ${response.status}`);
  }
  await api(`/api/open/v1/jobs/${jobId}/uploads/complete`, {
    method: 'POST',
    key,
    body: {
      directUploads: uploads.map((upload) => ({
        documentId: upload.documentId,
        uploadToken: upload.uploadToken,
      })),
    },
  });
  return jobId;
}

/** Polls a job until it completes or fails. */
export async function waitForJobEnd(key: string, jobId: string, timeoutMs = 240_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const job = (await api(`/api/open/v1/jobs/${jobId}`, { key })).body.job;
    if (job.status === 'completed' || job.status === 'failed') return job;
    if (Date.now() > deadline) throw new Error(`job still ${job.status} after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}
