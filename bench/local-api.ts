import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';

/**
 * The benches' client of the local API: a local stack with one organization and a key, a JSON call
 * that throws on 4xx/5xx, a ready project, and one file taken through register, upload (direct or
 * multipart), complete and processing.
 */
export type Call = (
  path: string,
  method?: string,
  body?: unknown,
  headers?: Record<string, string>,
  // biome-ignore lint/suspicious/noExplicitAny: benches read arbitrary JSON replies
) => Promise<Record<string, any>>;

export async function benchApi(options: {
  dataDir: string;
  persistDynamo: boolean;
  /** An organization of an earlier run (persisted data); a new one is seeded when absent. */
  orgId?: string;
  orgName: string;
  credits: number;
  plan?: 'standard' | 'enterprise';
}) {
  process.env.POWERTOOLS_LOG_LEVEL ??= 'ERROR';
  const { startLocalStack } = await import('../local/stack.ts');
  const { seedOrganization, issueCredentials } = await import('../local/seed.ts');
  const stack = await startLocalStack({
    dataDir: options.dataDir,
    persistDynamo: options.persistDynamo,
    apiPort: 0,
    // Search settings given to the bench (`SEARCH_FEEDBACK_TERMS=5 npm run bench:search-eval`) reach the
    // functions, which otherwise run with their template's environment.
    extraEnv: Object.fromEntries(
      Object.entries(process.env).filter(
        (entry): entry is [string, string] => entry[0].startsWith('SEARCH_') && entry[1] !== undefined,
      ),
    ),
  });
  const orgId =
    options.orgId ??
    (await seedOrganization({
      name: options.orgName,
      credits: options.credits,
      plan: options.plan ?? 'standard',
    }));
  const { apiKey } = await issueCredentials({ orgId, label: options.orgName });
  const call: Call = async (path, method = 'GET', body, headers = {}) => {
    const response = await fetch(`${stack.apiUrl}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${apiKey}`,
        ...(body ? { 'content-type': 'application/json' } : {}),
        ...headers,
      },
      body: body ? JSON.stringify(body) : undefined,
    });
    const json = (await response.json()) as Record<string, unknown>;
    if (response.status >= 400)
      throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(json)}`);
    return json;
  };
  return { stack, orgId, call, apiKey };
}

/** Creates a project and waits until it is ready; returns its id. */
export async function createReadyProject(call: Call, name: string): Promise<string> {
  const projectId = (await call('/api/open/v1/projects', 'POST', { name })).project.id as string;
  while ((await call(`/api/open/v1/projects/${projectId}`)).project.status !== 'ready')
    await new Promise((resolve) => setTimeout(resolve, 100));
  return projectId;
}

/**
 * One file, one job: register, PUT the bytes (parts when the registration says multipart),
 * complete, and poll until the job ends. Seconds are counted from the job's creation.
 */
export async function ingestFile(call: Call, projectId: string, path: string) {
  const bytes = readFileSync(path);
  const started = performance.now();
  const jobId = (
    await call(`/api/open/v1/projects/${projectId}/jobs`, 'POST', { displayName: basename(path) })
  ).job.id as string;
  const registered = await call(`/api/open/v1/jobs/${jobId}/uploads`, 'POST', {
    files: [
      {
        fileName: basename(path),
        contentType: 'application/pdf',
        fileSize: bytes.length,
        sha256: createHash('sha256').update(bytes).digest('hex'),
      },
    ],
  });
  const upload = registered.uploads[0];
  const complete: Record<string, unknown> = { directUploads: [], multipartUploads: [] };
  if (upload.uploadMode === 'direct_put') {
    const put = await fetch(upload.uploadUrl, { method: 'PUT', headers: upload.uploadHeaders, body: bytes });
    if (put.status !== 200) throw new Error(`upload failed: ${put.status}`);
    complete.directUploads = [{ documentId: upload.documentId, uploadToken: upload.uploadToken }];
  } else {
    const parts = [];
    for (const part of upload.parts) {
      const put = await fetch(part.uploadUrl, {
        method: 'PUT',
        headers: part.uploadHeaders,
        body: bytes.subarray(part.startByte, part.endByteExclusive),
      });
      parts.push({ partNumber: part.partNumber, etag: put.headers.get('etag') });
    }
    complete.multipartUploads = [
      {
        documentId: upload.documentId,
        multipartUploadId: upload.multipartUploadId,
        uploadToken: upload.uploadToken,
        parts,
      },
    ];
  }
  await call(`/api/open/v1/jobs/${jobId}/uploads/complete`, 'POST', complete);
  const uploadSeconds = (performance.now() - started) / 1000;
  let job = (await call(`/api/open/v1/jobs/${jobId}`)).job;
  while (job.status !== 'completed' && job.status !== 'failed') {
    await new Promise((resolve) => setTimeout(resolve, 200));
    job = (await call(`/api/open/v1/jobs/${jobId}`)).job;
  }
  return { job, uploadSeconds, seconds: (performance.now() - started) / 1000 };
}
