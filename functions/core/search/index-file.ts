import type { SearchIndexState } from '../content/model.ts';
import type { JobStore } from '../jobs/ports.ts';
import type { ProjectStore } from '../projects/ports.ts';
import { objectKeys } from '../storage-keys.ts';
import { ANALYZER_VERSION, analyzeText, sheetKey } from './analyzer.ts';
import { fileNameWords } from './named-files.ts';
import type {
  Embedder,
  IndexedPassage,
  IndexLock,
  JsonReader,
  SearchIndexStateStore,
  SearchLog,
  SourceIndex,
} from './ports.ts';
import { type Passage, passageCounts } from './sources.ts';

export interface IndexingDeps {
  jobs: JobStore;
  projects: Pick<ProjectStore, 'get'>;
  artifacts: JsonReader;
  states: SearchIndexStateStore;
  index: SourceIndex;
  embedder: Embedder;
  lock: IndexLock;
  log: SearchLog;
}

/** Thrown while another writer holds the project's index: the state machine retries the step later. */
export class IndexBusyError extends Error {
  constructor(projectId: string) {
    super(`Another writer holds the source index of project ${projectId}; retry shortly`);
    this.name = 'IndexBusy';
  }
}

const EMBED_BATCH = 64;
const LEASE_MS = 15 * 60_000;

/** Runs `write` holding the project's index lease (IndexBusyError when another writer holds it). */
export async function withIndexLease<T>(
  lock: IndexLock,
  lease: { projectId: string; holder: string; ms?: number },
  write: () => Promise<T>,
): Promise<T> {
  if (!(await lock.acquire(lease.projectId, lease.holder, lease.ms ?? LEASE_MS)))
    throw new IndexBusyError(lease.projectId);
  try {
    return await write();
  } finally {
    await lock.release(lease.projectId, lease.holder);
  }
}

/** Analyzes and embeds passages (in batches) into what the index stores. */
export async function preparePassages(embedder: Embedder, passages: Passage[]): Promise<IndexedPassage[]> {
  const prepared: IndexedPassage[] = [];
  for (let start = 0; start < passages.length; start += EMBED_BATCH) {
    const batch = passages.slice(start, start + EMBED_BATCH);
    const vectors = await embedder.embed(
      batch.map((passage) => `${passage.head}\n${passage.text}`),
      'passage',
    );
    for (const [offset, passage] of batch.entries()) {
      const headTokens = analyzeText(passage.head);
      prepared.push({
        ...passage,
        sheetKey: sheetKey(passage.sheetNumber),
        headTokens,
        // One searched field, its heading written twice (BM25F by term frequency: a heading's word
        // counts as two of the text's, before BM25 saturates). The file's name
        // (`paul-ave-pavement_project-manual.pdf`) counts once: a query that names the job or the
        // document leans to its passages, and nothing else changes.
        bodyTokens: [
          headTokens,
          analyzeText(`${passage.head}\n${passage.text}\n${fileNameWords(passage.fileName)}`),
        ].join(' '),
        vector: vectors[offset] as number[],
      });
    }
  }
  return prepared;
}

/**
 * Write one document's passages to its project's index and record the outcome on the document.
 * Input: the project's index location, the document, its stored passages.
 * Output: the new search index state of the document.
 * Steps: analyze and embed (outside the lock); take the project's index lease (IndexBusyError when
 * another writer holds it); replace the file's rows; release; record `indexed` with the counts. An
 * error other than a busy index is recorded as `failed` on the document (reconcile repairs it).
 */
export async function writeDocumentToIndex(
  deps: Omit<IndexingDeps, 'jobs' | 'projects'>,
  target: { projectId: string; indexLocation: string; documentId: string; fileId: string; holder: string },
  passages: Passage[],
): Promise<SearchIndexState> {
  const base = passageCounts(passages);
  try {
    const prepared = await preparePassages(deps.embedder, passages);
    await withIndexLease(deps.lock, target, () =>
      deps.index.replaceFile(
        target.indexLocation,
        { embedder: deps.embedder.id, dimension: deps.embedder.dimension, analyzer: ANALYZER_VERSION },
        target.fileId,
        prepared,
      ),
    );
    const state: SearchIndexState = {
      status: 'indexed',
      ...base,
      indexedAt: new Date().toISOString(),
      error: null,
    };
    await deps.states.setSearchIndexState(target.projectId, target.documentId, state);
    return state;
  } catch (error) {
    if (error instanceof IndexBusyError) throw error;
    deps.log.error('Indexing failed', { documentId: target.documentId, error: (error as Error).message });
    const state: SearchIndexState = {
      status: 'failed',
      ...base,
      indexedAt: null,
      error: {
        code: 'indexing_failed',
        message: 'The document could not be indexed; reconcile the source index to retry.',
      },
    };
    await deps.states.setSearchIndexState(target.projectId, target.documentId, state);
    return state;
  }
}

/**
 * Index one assembled file of a job (the pipeline's IndexFile step).
 * Input: orgId, jobId, fileId.
 * Output: the document's search index status, or `skipped` for a file that is not ready.
 * Steps: read the job, the file and the project; read the passages assembly stored; write them.
 */
export async function indexFile(
  deps: IndexingDeps,
  input: { orgId: string; jobId: string; fileId: string },
): Promise<{ status: SearchIndexState['status'] | 'skipped' }> {
  const job = await deps.jobs.get(input.orgId, input.jobId);
  if (!job) throw new Error(`Job ${input.jobId} does not exist`);
  const file = await deps.jobs.getFile(job, input.fileId);
  if (file?.status !== 'ready') return { status: 'skipped' };
  const project = await deps.projects.get(input.orgId, job.projectId);
  if (!project?.indexLocation) throw new Error(`Project ${job.projectId} has no index location`);
  const owner = { orgId: input.orgId, projectId: job.projectId, fileId: file.id };
  const passages = await deps.artifacts.getJson<Passage[]>(objectKeys.fileSources(owner));
  if (!passages) throw new Error(`No stored passages for file ${file.id}`);
  const state = await writeDocumentToIndex(
    deps,
    {
      projectId: job.projectId,
      indexLocation: project.indexLocation,
      documentId: file.documentId,
      fileId: file.id,
      holder: `${job.id}/${file.id}`,
    },
    passages,
  );
  deps.log.info('File indexed', { fileId: file.id, ...state });
  return { status: state.status };
}
