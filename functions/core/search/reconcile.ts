import type { DocumentRecord } from '../content/model.ts';
import { repairFile } from '../content/normalize-regions.ts';
import { ConflictError } from '../errors.ts';
import { newId } from '../ids.ts';
import { newJobRecord } from '../jobs/model.ts';
import type { JobStore } from '../jobs/ports.ts';
import { type RepairJobStarter, resumeRepairJob } from '../jobs/repair-jobs.ts';
import { computeOverview, type Project, type ProjectOverview, toPublicProject } from '../projects/model.ts';
import type { LatestJobLookup, ProjectStore } from '../projects/ports.ts';
import { requireProject } from '../projects/queries.ts';
import { ANALYZER_VERSION } from './analyzer.ts';
import { withIndexLease } from './index-file.ts';
import type { SourceIndexReport } from './model.ts';
import type { Embedder, IndexLock, SearchIndexStateStore, SearchLog, SourceIndex } from './ports.ts';

export class ProjectNotReadyForIndexError extends ConflictError {
  constructor() {
    super('project_not_ready', 'The project is not ready; wait until it is.');
  }
}

/** Starts the reconcile machine of a job: its files are re-indexed by the pipeline's IndexFile step. */
export type ReconcileStarter = RepairJobStarter;

export interface ReconcileDeps {
  projects: Pick<ProjectStore, 'get'>;
  jobs: JobStore & LatestJobLookup;
  states: SearchIndexStateStore;
  /** Read only here (the inventory); the job writes. */
  index: Pick<SourceIndex, 'inventory'>;
  /** Its id and dimension only: a build by another embedder is rebuilt. */
  embedder: Pick<Embedder, 'id' | 'dimension'>;
  documents: { documents(projectId: string): Promise<DocumentRecord[]> };
  starter: ReconcileStarter;
}

export interface PrepareReconcileDeps {
  jobs: Pick<JobStore, 'get'>;
  projects: Pick<ProjectStore, 'get'>;
  states: SearchIndexStateStore;
  index: SourceIndex;
  embedder: Pick<Embedder, 'id' | 'dimension'>;
  lock: IndexLock;
  log: SearchLog;
}

type Task =
  | { kind: 'missing' | 'stale'; documentId: string; fileId: string }
  | { kind: 'orphan'; fileId: string };

interface Plan {
  tasks: Task[];
  indexed: number;
  rebuild: boolean;
}

/**
 * What differs between the project's documents and its index: a document with sources is `missing`
 * when the index holds none of its passages (or its state is not `indexed`), `stale` when the counts
 * differ or the index was built by another embedder or analyzer; passages of a file with no document
 * are `orphan`s.
 */
async function planRepairs(
  deps: {
    states: SearchIndexStateStore;
    index: Pick<SourceIndex, 'inventory'>;
    embedder: Pick<Embedder, 'id' | 'dimension'>;
  },
  projectId: string,
  location: string,
): Promise<Plan> {
  const [documents, inventory] = await Promise.all([
    deps.states.documentIndexStates(projectId),
    deps.index.inventory(location),
  ]);
  const rebuild =
    inventory.build !== null &&
    (inventory.build.embedder !== deps.embedder.id ||
      inventory.build.dimension !== deps.embedder.dimension ||
      inventory.build.analyzer !== ANALYZER_VERSION);
  const tasks: Task[] = [];
  const known = new Set(documents.map((document) => document.fileId));
  let indexed = 0;
  for (const document of documents) {
    if (document.state.sourceCount === 0) continue;
    const held = inventory.files.get(document.fileId);
    const target = { documentId: document.documentId, fileId: document.fileId };
    if (!held || document.state.status !== 'indexed') tasks.push({ kind: 'missing', ...target });
    else if (rebuild || held.passages !== document.state.passageCount)
      tasks.push({ kind: 'stale', ...target });
    else indexed++;
  }
  for (const fileId of inventory.files.keys()) if (!known.has(fileId)) tasks.push({ kind: 'orphan', fileId });
  return { tasks, indexed, rebuild };
}

const count = (tasks: Task[], kind: Task['kind']) => tasks.filter((task) => task.kind === kind).length;

/**
 * Compare the project's documents with its index and schedule a job that repairs up to `limit`
 * differences; the request itself embeds and writes nothing (a large document outlived the API's 29 s).
 * Input: the caller's organization, the project id, `limit` (1 to 25).
 * Output: 200 with the report (`ok`) when nothing differs; else 202 with the report before the
 * repairs and the reconcile job (kind `index_reconciliation`) that makes them, or the one running.
 * Steps: ownership first; while a reconcile job of the project is active, return it (and start its
 * execution again, a no-op while it runs); plan; make a job with one file per document to re-index
 * (the first `limit` tasks; orphans count, and are removed by the job's first step with any rebuild)
 * and start its machine, which re-indexes each document with the pipeline's own IndexFile step.
 */
export async function reconcileSourceIndex(
  deps: ReconcileDeps,
  input: { orgId: string; projectId: string; limit: number; now?: Date },
): Promise<{
  status: 200 | 202;
  project: Project;
  sourceIndex: SourceIndexReport;
  overview: ProjectOverview;
}> {
  const project = await requireProject(deps.projects, input.orgId, input.projectId);
  if (project.status !== 'ready' || !project.indexLocation) throw new ProjectNotReadyForIndexError();
  const plan = await planRepairs(deps, project.id, project.indexLocation);
  const answer = async (status: 200 | 202, jobId: string | null, scheduled: number) => ({
    status,
    project: toPublicProject(project),
    sourceIndex: {
      status: plan.tasks.length === 0 ? ('ok' as const) : ('incomplete' as const),
      indexedDocuments: plan.indexed,
      missingDocuments: count(plan.tasks, 'missing'),
      staleDocuments: count(plan.tasks, 'stale'),
      orphanedFiles: count(plan.tasks, 'orphan'),
      repairedTasks: 0,
      scheduledTasks: scheduled,
      remainingTasks: plan.tasks.length,
      embedder: deps.embedder.id,
      jobId,
    },
    overview: computeOverview(project, await deps.jobs.latestJob(input.orgId, project.id)),
  });

  const running = await resumeRepairJob(deps, input.orgId, project.id, 'index_reconciliation');
  if (running) {
    return answer(202, running.id, running.fileCount);
  }
  if (plan.tasks.length === 0) return answer(200, null, 0);

  const chosen = plan.tasks.slice(0, input.limit);
  const byId = new Map(
    (await deps.documents.documents(project.id)).map((document) => [document.documentId, document]),
  );
  const documents = chosen.flatMap((task) =>
    task.kind === 'orphan' ? [] : (byId.get(task.documentId) ?? []),
  );
  const iso = (input.now ?? new Date()).toISOString();
  const job = newJobRecord({
    orgId: input.orgId,
    id: newId('job'),
    project,
    kind: 'index_reconciliation',
    displayName: `Reconcile the source index (${chosen.length} task${chosen.length === 1 ? '' : 's'})`,
    externalId: null,
    status: 'processing',
    fileCount: documents.length,
    pageCount: documents.reduce((sum, document) => sum + document.pageCount, 0),
    message: `Indexing ${documents.length} document${documents.length === 1 ? '' : 's'} again.`,
    now: iso,
    // No uploads: the window is closed from the start.
    expiresAt: iso,
  });
  const files = documents.map((document) => repairFile(job, document, iso, 'ready'));
  await deps.jobs.createWithFiles(job, files);
  await deps.starter.start(
    input.orgId,
    job.id,
    files.map((file) => file.id),
  );
  return answer(202, job.id, chosen.length);
}

/**
 * The reconcile job's first step, before its documents are indexed again.
 * Input: orgId, jobId.
 * Output: how many orphaned files it removed and whether it started the index over.
 * Steps: read the job's project and plan again (a retry sees what an earlier attempt did); holding
 * the index lease (IndexBusy while a job writes: the machine retries), start the index over when it
 * was built by another embedder or analyzer (every document becomes pending; the job's files are
 * indexed next, the rest by the next reconcile), and remove the passages of files with no document.
 */
export async function prepareReconcile(
  deps: PrepareReconcileDeps,
  input: { orgId: string; jobId: string },
): Promise<{ orphansRemoved: number; rebuilt: boolean }> {
  const job = await deps.jobs.get(input.orgId, input.jobId);
  if (!job) throw new Error(`Job ${input.jobId} does not exist`);
  const project = await deps.projects.get(input.orgId, job.projectId);
  if (!project?.indexLocation) throw new Error(`Project ${job.projectId} has no index location`);
  const location = project.indexLocation;
  const plan = await planRepairs(deps, project.id, location);
  const orphans = plan.tasks.flatMap((task) => (task.kind === 'orphan' ? [task.fileId] : []));
  const rebuild = plan.rebuild && plan.tasks.length > 0;
  if (!rebuild && orphans.length === 0) return { orphansRemoved: 0, rebuilt: false };
  await withIndexLease(
    deps.lock,
    { projectId: project.id, holder: `${job.id}/prepare`, ms: 5 * 60_000 },
    async () => {
      if (rebuild) {
        // Another embedder cannot be mixed in: start the index over, every document becomes missing.
        await deps.index.reset(location);
        for (const document of await deps.states.documentIndexStates(project.id))
          if (document.state.status === 'indexed')
            await deps.states.setSearchIndexState(project.id, document.documentId, {
              ...document.state,
              status: 'pending',
              indexedAt: null,
            });
      }
      for (const fileId of orphans) await deps.index.removeFile(location, fileId);
    },
  );
  deps.log.info('Reconcile prepared', { jobId: job.id, orphans: orphans.length, rebuilt: rebuild });
  return { orphansRemoved: orphans.length, rebuilt: rebuild };
}
