import { ConflictError, NotFoundError } from '../errors.ts';
import { requireJob } from '../jobs/jobs.ts';
import type { JobStore } from '../jobs/ports.ts';
import type { CursorCodec } from '../pagination/cursor.ts';
import { pageEnvelope } from '../pagination/page.ts';
import type { ProjectStore } from '../projects/ports.ts';
import { requireProject } from '../projects/queries.ts';
import { objectKeys } from '../storage-keys.ts';
import type { ArtifactPaths } from './artifacts.ts';
import { type StoredJobResult, StoredJobResultSchema } from './job-result.ts';

export interface ArtifactStorage {
  size(key: string): Promise<number | null>;
  get(key: string): Promise<Uint8Array>;
  presignGet(key: string, fileName: string, expiresInSeconds: number): Promise<string>;
}

export class ArtifactNotFoundError extends NotFoundError {
  constructor() {
    super(
      'artifact_not_found',
      'No artifact at this path for this resource. Use a path exactly as a response of this project or job gave it.',
    );
  }
}

/** Bigger artifacts are redirected to a short-lived signed storage URL (API responses are capped at 6 MB). */
export const INLINE_ARTIFACT_MAX_BYTES = 4 * 1024 * 1024;

export type ArtifactDownload =
  | { kind: 'inline'; bytes: Uint8Array; fileName: string }
  | { kind: 'redirect'; url: string };

async function deliver(storage: ArtifactStorage, key: string): Promise<ArtifactDownload> {
  const size = await storage.size(key);
  if (size === null) throw new ArtifactNotFoundError();
  const fileName = key.split('/').pop() ?? 'artifact';
  if (size > INLINE_ARTIFACT_MAX_BYTES)
    return { kind: 'redirect', url: await storage.presignGet(key, fileName, 300) };
  return { kind: 'inline', bytes: await storage.get(key), fileName };
}

/** Project artifact: only paths issued by this project's own responses resolve. */
export async function downloadProjectArtifact(
  deps: { projects: ProjectStore; artifacts: ArtifactPaths; storage: ArtifactStorage },
  input: { orgId: string; projectId: string; path: string },
): Promise<ArtifactDownload> {
  await requireProject(deps.projects, input.orgId, input.projectId);
  const key = deps.artifacts.resolve(`project:${input.projectId}`, input.path);
  // Defense in depth: a resolved key must also lie under this project's own prefix.
  const owned = key?.startsWith(objectKeys.projectPrefix(input)) ? key : null;
  if (owned === null) throw new ArtifactNotFoundError();
  return deliver(deps.storage, owned);
}

async function storedResult(
  deps: { jobs: JobStore; storage: ArtifactStorage },
  input: { orgId: string; jobId: string },
): Promise<StoredJobResult> {
  const job = await requireJob(deps.jobs, input.orgId, input.jobId);
  const key = objectKeys.jobResult(job, job.id);
  if (job.status !== 'completed' && job.status !== 'failed') {
    throw new ConflictError(
      'job_result_not_ready',
      `The job is ${job.status}; its result exists once it has completed.`,
      {
        jobStatus: job.status,
      },
    );
  }
  if ((await deps.storage.size(key)) === null) {
    throw new NotFoundError(
      'job_result_not_found',
      'This job ended without a result (it failed before processing).',
    );
  }
  return StoredJobResultSchema.parse(JSON.parse(Buffer.from(await deps.storage.get(key)).toString('utf8')));
}

/**
 * The job's immutable result, with each artifact as a reference readable through the job artifact
 * endpoint. Its artifacts are paged (a job of 1,000 sheets has about 10,000, which no single response
 * may carry); the rest of the result comes whole with every page. A position is an offset into the
 * immutable list, so pages never shift.
 */
export async function getJobResult(
  deps: { jobs: JobStore; storage: ArtifactStorage; artifacts: ArtifactPaths; cursors: CursorCodec },
  input: { orgId: string; jobId: string; limit: number; cursor?: string },
) {
  const { artifacts, ...result } = await storedResult(deps, input);
  const scope = { endpoint: 'getJobResult', orgId: input.orgId, filters: { jobId: input.jobId } };
  // Sealed and bound to this job: an offset this function wrote into its immutable list.
  const offset = input.cursor ? deps.cursors.decode<number>(input.cursor, scope) : 0;
  const page = artifacts.slice(offset, offset + input.limit);
  const next = offset + page.length;
  return {
    result: {
      ...result,
      artifacts: page.map((artifact) =>
        deps.artifacts.jobReference(input.jobId, artifact.type, artifact.key),
      ),
    },
    ...pageEnvelope({
      total: artifacts.length,
      limit: input.limit,
      cursor: input.cursor ?? null,
      nextCursor: next < artifacts.length ? deps.cursors.encode(scope, next) : null,
      returnedCount: page.length,
    }),
  };
}

/** Job artifact: only paths listed in that job's immutable result resolve. */
export async function downloadJobArtifact(
  deps: { jobs: JobStore; storage: ArtifactStorage; artifacts: ArtifactPaths },
  input: { orgId: string; jobId: string; path: string },
): Promise<ArtifactDownload> {
  const result = await storedResult(deps, input);
  const key = deps.artifacts.resolve(`job:${input.jobId}`, input.path);
  if (!key || !result.artifacts.some((artifact) => artifact.key === key)) throw new ArtifactNotFoundError();
  return deliver(deps.storage, key);
}
