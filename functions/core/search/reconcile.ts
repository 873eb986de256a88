import { ConflictError } from '../errors.ts';
import { computeOverview, type Project, type ProjectOverview, toPublicProject } from '../projects/model.ts';
import type { LatestJobLookup, ProjectStore } from '../projects/ports.ts';
import { requireProject } from '../projects/queries.ts';
import { objectKeys } from '../storage-keys.ts';
import { ANALYZER_VERSION } from './analyzer.ts';
import { IndexBusyError, withIndexLease, writeDocumentToIndex } from './index-file.ts';
import type { SourceIndexReport } from './model.ts';
import type {
  Embedder,
  IndexLock,
  JsonReader,
  SearchIndexStateStore,
  SearchLog,
  SourceIndex,
} from './ports.ts';
import type { Passage } from './sources.ts';

export class SourceIndexBusyError extends ConflictError {
  constructor() {
    super(
      'source_index_busy',
      'The source index of this project is being written (a job or another reconcile); retry in 10 seconds.',
      { retryAfterSeconds: 10 },
    );
  }
}

export class ProjectNotReadyForIndexError extends ConflictError {
  constructor() {
    super('project_not_ready', 'The project is not ready; wait until it is.');
  }
}

export interface ReconcileDeps {
  projects: ProjectStore;
  jobs: LatestJobLookup;
  states: SearchIndexStateStore;
  index: SourceIndex;
  embedder: Embedder;
  lock: IndexLock;
  artifacts: JsonReader;
  /** Recounts the project's totals (counts, indexed sources) and saves them on the project. */
  refreshTotals(orgId: string, projectId: string): Promise<void>;
  log: SearchLog;
}

type Task =
  | { kind: 'missing' | 'stale'; documentId: string; fileId: string }
  | { kind: 'orphan'; fileId: string };

/**
 * Compare the project's documents with its index and repair up to `limit` differences.
 * Input: the caller's organization, the project id, `limit` (1 to 25).
 * Output: the project, the index report before and after the repairs, the updated overview.
 * Steps: ownership first; list documents with their index state and the index's passages per file;
 * a document with sources is `missing` when the index has none of its passages (or its state is not
 * `indexed`), `stale` when the counts differ or the index was built by another embedder or analyzer;
 * passages of a file with no document are `orphan`s. Repair in that order: re-index a document from
 * the passages assembly stored (a changed embedder rebuilds the whole index), remove orphans. A busy
 * index answers 409 source_index_busy; recount the project's totals.
 */
export async function reconcileSourceIndex(
  deps: ReconcileDeps,
  input: { orgId: string; projectId: string; limit: number },
): Promise<{ project: Project; sourceIndex: SourceIndexReport; overview: ProjectOverview }> {
  const project = await requireProject(deps.projects, input.orgId, input.projectId);
  if (project.status !== 'ready' || !project.indexLocation) throw new ProjectNotReadyForIndexError();
  const location = project.indexLocation;

  const plan = async () => {
    const [documents, inventory] = await Promise.all([
      deps.states.documentIndexStates(project.id),
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
    for (const fileId of inventory.files.keys())
      if (!known.has(fileId)) tasks.push({ kind: 'orphan', fileId });
    return { tasks, indexed, rebuild };
  };

  const before = await plan();
  let repaired = 0;
  const holder = `reconcile/${project.id}/${Date.now()}`;
  const lease = { projectId: project.id, holder, ms: 60_000 };
  try {
    if (before.rebuild && before.tasks.length > 0) {
      // Another embedder cannot be mixed in: start the index over, every document becomes missing.
      await withIndexLease(deps.lock, lease, async () => {
        await deps.index.reset(location);
        const documents = await deps.states.documentIndexStates(project.id);
        for (const document of documents.filter((candidate) => candidate.state.status === 'indexed'))
          await deps.states.setSearchIndexState(project.id, document.documentId, {
            ...document.state,
            status: 'pending',
            indexedAt: null,
          });
      });
    }
    for (const task of before.tasks.slice(0, input.limit)) {
      if (task.kind === 'orphan') {
        await withIndexLease(deps.lock, lease, () => deps.index.removeFile(location, task.fileId));
      } else {
        const owner = { orgId: input.orgId, projectId: project.id, fileId: task.fileId };
        const passages = await deps.artifacts.getJson<Passage[]>(objectKeys.fileSources(owner));
        if (!passages) {
          deps.log.error('No stored passages to reconcile', { fileId: task.fileId });
          continue;
        }
        const state = await writeDocumentToIndex(
          deps,
          {
            projectId: project.id,
            indexLocation: location,
            documentId: task.documentId,
            fileId: task.fileId,
            holder,
          },
          passages,
        );
        if (state.status !== 'indexed') continue;
      }
      repaired++;
    }
  } catch (error) {
    if (error instanceof IndexBusyError) throw new SourceIndexBusyError();
    throw error;
  }
  await deps.refreshTotals(input.orgId, project.id);
  const after = await plan();
  const count = (tasks: Task[], kind: Task['kind']) => tasks.filter((task) => task.kind === kind).length;
  const refreshed = await requireProject(deps.projects, input.orgId, input.projectId);
  return {
    project: toPublicProject(refreshed),
    sourceIndex: {
      status: after.tasks.length === 0 ? 'ok' : 'incomplete',
      indexedDocuments: after.indexed,
      missingDocuments: count(after.tasks, 'missing'),
      staleDocuments: count(after.tasks, 'stale'),
      orphanedFiles: count(after.tasks, 'orphan'),
      repairedTasks: repaired,
      remainingTasks: after.tasks.length,
      embedder: deps.embedder.id,
    },
    overview: computeOverview(refreshed, await deps.jobs.latestJob(input.orgId, project.id)),
  };
}
