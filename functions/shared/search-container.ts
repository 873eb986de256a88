import type { Logger } from '@aws-lambda-powertools/logger';
import { BedrockRuntimeClient } from '@aws-sdk/client-bedrock-runtime';
import { DynamoContentStore, DynamoProjectTotalsWriter } from '../adapters/dynamodb/content-store.ts';
import { DynamoIndexLock, DynamoSearchIndexStates } from '../adapters/dynamodb/search-index-store.ts';
import { BedrockEmbedder } from '../adapters/embeddings/bedrock-embedder.ts';
import { WordVectorEmbedder } from '../adapters/embeddings/word-vector-embedder.ts';
import { LanceSourceIndex } from '../adapters/index/lancedb-source-index.ts';
import { S3ObjectStore } from '../adapters/s3/object-store.ts';
import { analyzeQuery } from '../core/search/analyzer.ts';
import type { IndexingDeps } from '../core/search/index-file.ts';
import type { Embedder } from '../core/search/ports.ts';
import type { ReconcileDeps } from '../core/search/reconcile.ts';
import type { SearchDeps } from '../core/search/search-sources.ts';
import { dynamo, s3 } from './clients.ts';
import { config, resource } from './config.ts';
import { jobStore, projectStore } from './container.ts';
import { lazy } from './lazy.ts';
import { logger } from './logger.ts';

/** The canonical sheet-number key the index stores and the sheetNumber filter compares. */
export const sheetKey = (sheetNumber: string) =>
  analyzeQuery(sheetNumber).identifiers[0] ?? sheetNumber.toLowerCase();

export const sourceIndex = lazy(
  () =>
    new LanceSourceIndex({
      ...(config.LOCAL_INDEX_ROOT ? { localRoot: config.LOCAL_INDEX_ROOT } : {}),
      ...(process.env.AWS_REGION ? { storageOptions: { region: process.env.AWS_REGION } } : {}),
      sheetKey,
    }),
);

export const embedder = lazy<Embedder>(() =>
  config.EMBEDDER === 'local'
    ? new WordVectorEmbedder()
    : new BedrockEmbedder(
        new BedrockRuntimeClient({ retryMode: 'adaptive', maxAttempts: 8 }),
        resource('embeddingModel'),
        config.EMBEDDING_DIMENSION,
      ),
);

export const searchIndexStates = lazy(() => new DynamoSearchIndexStates(dynamo, resource('table')));
const indexLock = lazy(() => new DynamoIndexLock(dynamo, resource('table')));
const artifacts = lazy(() => new S3ObjectStore(s3, resource('artifactsBucket')));

export function searchDeps(): SearchDeps {
  return {
    projects: projectStore(),
    states: searchIndexStates(),
    index: sourceIndex(),
    embedder: embedder(),
    sheetKey,
    fusion: {
      lexicalK: config.SEARCH_LEXICAL_RRF_K,
      semanticK: config.SEARCH_SEMANTIC_RRF_K,
      semanticWeight: config.SEARCH_SEMANTIC_WEIGHT,
    },
  };
}

export function reconcileDeps(log: Logger = logger): ReconcileDeps {
  const content = new DynamoContentStore(dynamo, resource('table'));
  const totals = new DynamoProjectTotalsWriter(dynamo, resource('table'));
  const indexing = indexingDeps(log);
  return {
    projects: projectStore(),
    jobs: jobStore(),
    states: searchIndexStates(),
    index: sourceIndex(),
    embedder: embedder(),
    lock: indexLock(),
    artifacts: artifacts(),
    refreshTotals: async (orgId, projectId) =>
      totals.saveTotals(orgId, projectId, await content.projectTotals(projectId)),
    log: indexing.log,
  };
}

export function indexingDeps(log: Logger = logger): IndexingDeps {
  return {
    get jobs() {
      return jobStore();
    },
    get projects() {
      return projectStore();
    },
    get artifacts() {
      return artifacts();
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
    log: {
      info: (message, attributes = {}) => log.info(message, attributes),
      error: (message, attributes = {}) => log.error(message, attributes),
    },
  };
}
