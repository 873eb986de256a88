import type { Logger } from '@aws-lambda-powertools/logger';
import { BedrockRuntimeClient } from '@aws-sdk/client-bedrock-runtime';
import { DynamoReviewStore } from '../adapters/dynamodb/review-store.ts';
import { DynamoIndexLock, DynamoSearchIndexStates } from '../adapters/dynamodb/search-index-store.ts';
import { BedrockEmbedder } from '../adapters/embeddings/bedrock-embedder.ts';
import { WordVectorEmbedder } from '../adapters/embeddings/word-vector-embedder.ts';
import { LanceSourceIndex } from '../adapters/index/lancedb-source-index.ts';
import { StepFunctionsStarter } from '../adapters/sfn/execution-starter.ts';
import type { IndexingDeps } from '../core/search/index-file.ts';
import type { Embedder } from '../core/search/ports.ts';
import type { ReconcileDeps } from '../core/search/reconcile.ts';
import type { SearchDeps } from '../core/search/search-sources.ts';
import { dynamo, sfn, traced } from './clients.ts';
import { config, resource } from './config.ts';
import { artifactObjects, contentStore, jobStore, projectStore } from './container.ts';
import { lazy } from './lazy.ts';
import { logger, logPort } from './logger.ts';

export const sourceIndex = lazy(
  () =>
    new LanceSourceIndex({
      ...(config.LOCAL_INDEX_ROOT ? { localRoot: config.LOCAL_INDEX_ROOT } : {}),
      ...(process.env.AWS_REGION ? { storageOptions: { region: process.env.AWS_REGION } } : {}),
    }),
);

export const embedder = lazy<Embedder>(() => {
  // The word vectors stand in for the model locally: their function must be bound to the model all the same.
  const modelId = resource('embeddingModel');
  return config.EMBEDDER === 'local'
    ? new WordVectorEmbedder()
    : new BedrockEmbedder(
        traced(new BedrockRuntimeClient({ retryMode: 'adaptive', maxAttempts: 8 })),
        modelId,
        config.EMBEDDING_DIMENSION,
      );
});

const reviewSourceLookup = lazy(() => new DynamoReviewStore(dynamo, resource('table')));
export const searchIndexStates = lazy(() => new DynamoSearchIndexStates(dynamo, resource('table')));
const indexLock = lazy(() => new DynamoIndexLock(dynamo, resource('table')));

export function searchDeps(): SearchDeps {
  return {
    projects: projectStore(),
    states: searchIndexStates(),
    index: sourceIndex(),
    embedder: embedder(),
    reviews: reviewSourceLookup(),
    jobs: jobStore(),
    fusion: {
      lexicalK: config.SEARCH_LEXICAL_RRF_K,
      semanticK: config.SEARCH_SEMANTIC_RRF_K,
      semanticWeight: config.SEARCH_SEMANTIC_WEIGHT,
      namedWeight: config.SEARCH_NAMED_WEIGHT,
      expansionWeight: config.SEARCH_EXPANSION_WEIGHT,
      proximityPairs: config.SEARCH_PROXIMITY_PAIRS,
      feedbackTerms: config.SEARCH_FEEDBACK_TERMS,
    },
  };
}

/** What indexing and reconcile share; adapters are built on first use (a task needs only what it touches). */
export function indexingDeps(log: Logger = logger): IndexingDeps {
  return {
    get jobs() {
      return jobStore();
    },
    get projects() {
      return projectStore();
    },
    get artifacts() {
      return artifactObjects();
    },
    get states() {
      return searchIndexStates();
    },
    get index() {
      return sourceIndex();
    },
    get embedder() {
      return embedder();
    },
    get lock() {
      return indexLock();
    },
    log: logPort(log),
  };
}

/** The reconcile route: it plans and starts a job; the job's tasks (indexingDeps) write. */
export function reconcileDeps(): ReconcileDeps {
  const starter = new StepFunctionsStarter(sfn, resource('reconcileIndexStateMachine'));
  return {
    projects: projectStore(),
    jobs: jobStore(),
    states: searchIndexStates(),
    index: sourceIndex(),
    embedder: embedder(),
    documents: contentStore(),
    starter: { start: (orgId, jobId, fileIds) => starter.start(jobId, { orgId, jobId, fileIds }) },
  };
}
