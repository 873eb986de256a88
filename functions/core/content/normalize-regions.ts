import { z } from 'zod';
import { ConflictError } from '../errors.ts';
import { newId } from '../ids.ts';
import { JOB_LIMITS, type JobFileRecord, type JobRecord, newJobRecord } from '../jobs/model.ts';
import type { JobStore } from '../jobs/ports.ts';
import { type RepairJobStarter, resumeRepairJob } from '../jobs/repair-jobs.ts';
import {
  computeOverview,
  type OwnedProject,
  type Project,
  type ProjectOverview,
  toPublicProject,
} from '../projects/model.ts';
import type { LatestJobLookup, ProjectStore } from '../projects/ports.ts';
import { requireProject } from '../projects/queries.ts';
import { objectKeys } from '../storage-keys.ts';
import type { DocumentRecord } from './model.ts';
import type { RegionNormalizationStore } from './ports.ts';

export const NORMALIZATION_MODES = ['missing_normalized_regions'] as const;

export const NormalizationSchema = z.object({
  scheduledDocumentCount: z.number().int().describe('Documents the repair job normalizes.'),
  skippedDocumentCount: z
    .number()
    .int()
    .describe(
      'Documents considered but not scheduled: not ready, every region already normalized, or past the 1,000 documents one repair job takes.',
    ),
  mode: z.enum(NORMALIZATION_MODES),
  jobId: z
    .string()
    .nullable()
    .describe('The repair job (kind `region_normalization`); null when none was needed.'),
});
export type Normalization = z.infer<typeof NormalizationSchema>;

export type NormalizationStarter = RepairJobStarter;

export interface NormalizeRegionsDeps {
  projects: ProjectStore;
  jobs: JobStore & LatestJobLookup;
  regions: RegionNormalizationStore;
  starter: NormalizationStarter;
}

/** Regions of this many documents are counted at once while planning. */
const COUNT_CONCURRENCY = 8;

async function mapBounded<T, R>(items: T[], limit: number, task: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await task(items[index] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

/**
 * A repair job's file for one document: the document's own upload is what the job reads again. A
 * normalization reads it (`processing`); a reconcile re-indexes what its assembly stored (`ready`).
 */
export function repairFile(
  job: JobRecord,
  document: DocumentRecord,
  now: string,
  status: 'processing' | 'ready' = 'processing',
): JobFileRecord {
  return {
    jobId: job.id,
    orgId: job.orgId,
    projectId: job.projectId,
    id: document.fileId,
    documentId: document.documentId,
    fileName: document.fileName,
    contentType: document.contentType,
    fileSize: document.fileSize,
    classification: document.classification,
    classificationDeclared: true,
    pageCount: document.pageCount,
    successfulPageCount: status === 'ready' ? document.successfulPageCount : 0,
    status,
    uploadStatus: 'uploaded',
    error: null,
    sha256: document.sha256,
    objectKey: objectKeys.uploadedFile({ ...job, jobId: document.jobId }, document.fileId),
    uploadMode: 'direct_put',
    multipartUploadId: null,
    partSize: null,
    duplicateOfDocumentId: null,
    createdAt: now,
    updatedAt: now,
  };
}

/**
 * Schedule a repair job over regions without normalized data.
 * Input: organization, project (ready), mode, optional document ids (every ready document otherwise).
 * Output: 202 with the repair job, or 200 with `jobId` null when no ready document has a region to
 * normalize; the project and its overview either way.
 * Steps: ownership first; unknown document ids are a 404 (another project's document does not exist
 * here); while a repair job of the project is active, that job is returned (and its execution started
 * again, which is a no-op when it runs: a retry after a crash between the two writes completes it);
 * count each ready document's regions to normalize; make the job with one file per document to
 * repair (at most 1,000), then start its state machine.
 */
export async function normalizeProjectRegions(
  deps: NormalizeRegionsDeps,
  input: {
    orgId: string;
    projectId: string;
    mode: (typeof NORMALIZATION_MODES)[number];
    documentIds?: string[];
    now?: Date;
  },
): Promise<{ status: 200 | 202; project: Project; normalization: Normalization; overview: ProjectOverview }> {
  const project = await requireProject(deps.projects, input.orgId, input.projectId);
  if (project.status !== 'ready')
    throw new ConflictError('project_not_ready', 'The project is not ready; wait until it is.', {
      projectStatus: project.status,
    });
  const { candidates, unknownCount } = namedDocuments(
    await deps.regions.documents(project.id),
    input.documentIds,
  );
  const answer = async (status: 200 | 202, scheduled: number, jobId: string | null) => {
    const latest = await deps.jobs.latestJob(input.orgId, project.id);
    return {
      status,
      project: toPublicProject(project),
      normalization: {
        scheduledDocumentCount: scheduled,
        skippedDocumentCount: Math.max(0, candidates.length + unknownCount - scheduled),
        mode: input.mode,
        jobId,
      },
      overview: computeOverview(project, latest),
    };
  };
  const running = await resumeRepairJob(deps, input.orgId, project.id, 'region_normalization');
  if (running) return answer(202, running.fileCount, running.id);
  const ready = candidates.filter((document) => document.status === 'ready');
  const missing = await mapBounded(ready, COUNT_CONCURRENCY, (document) =>
    deps.regions.countRegionsToNormalize(project.id, document.fileId),
  );
  const scheduled = ready.filter((_, index) => (missing[index] ?? 0) > 0).slice(0, JOB_LIMITS.maxFiles);
  if (scheduled.length === 0) return answer(200, 0, null);
  const regionCount = missing.reduce((sum, count) => sum + count, 0);
  const jobId = await startRepairJob(deps, project, scheduled, regionCount, input.now ?? new Date());
  return answer(202, scheduled.length, jobId);
}

/**
 * The documents a request names (every one of the project's when it names none). A named document that
 * is not the project's is no ready document: skipped, as the contract says ("no ready document matches:
 * 200, jobId null"), not refused.
 */
function namedDocuments(
  documents: DocumentRecord[],
  documentIds: string[] | undefined,
): { candidates: DocumentRecord[]; unknownCount: number } {
  if (!documentIds) return { candidates: documents, unknownCount: 0 };
  const byId = new Map(documents.map((document) => [document.documentId, document]));
  const wanted = [...new Set(documentIds)];
  const candidates = wanted.flatMap((id) => byId.get(id) ?? []);
  return { candidates, unknownCount: wanted.length - candidates.length };
}

/** Makes the repair job, one file per document to repair, and starts its state machine. */
async function startRepairJob(
  deps: NormalizeRegionsDeps,
  project: OwnedProject,
  scheduled: DocumentRecord[],
  regionCount: number,
  now: Date,
): Promise<string> {
  const iso = now.toISOString();
  const job = newJobRecord({
    orgId: project.orgId,
    id: newId('job'),
    project,
    kind: 'region_normalization',
    displayName: `Normalize regions of ${scheduled.length} document${scheduled.length === 1 ? '' : 's'}`,
    externalId: null,
    status: 'processing',
    fileCount: scheduled.length,
    pageCount: scheduled.reduce((sum, document) => sum + document.pageCount, 0),
    message: `Normalizing ${regionCount} regions.`,
    now: iso,
    // No uploads: the window is closed from the start.
    expiresAt: iso,
  });
  const files = scheduled.map((document) => repairFile(job, document, iso));
  await deps.jobs.createWithFiles(job, files);
  await deps.starter.start(
    project.orgId,
    job.id,
    files.map((file) => file.id),
  );
  return job.id;
}
