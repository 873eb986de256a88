import type { Logger } from '@aws-lambda-powertools/logger';
import { BedrockAgentRuntimeClient } from '@aws-sdk/client-bedrock-agent-runtime';
import { BedrockRuntimeClient } from '@aws-sdk/client-bedrock-runtime';
import { DynamoIndexLock, DynamoSearchIndexStates } from '../../adapters/dynamodb/search-index-store.ts';
import { BedrockEmbedder } from '../../adapters/embeddings/bedrock-embedder.ts';
import { WordVectorEmbedder } from '../../adapters/embeddings/word-vector-embedder.ts';
import { LanceSourceIndex } from '../../adapters/index/lancedb-source-index.ts';
import { BedrockReranker } from '../../adapters/rerank/bedrock-reranker.ts';
import { requireProject } from '../../core/projects/queries.ts';
import { cachedReadyProjects } from '../../core/projects/ready-projects.ts';
import type { ToolDeps } from '../../core/reviews/execution-steps.ts';
import type { Embedder, Reranker } from '../../core/search/ports.ts';
import { searchSources } from '../../core/search/search-sources.ts';
import { dynamo, traced } from '../clients.ts';
import { config, resource } from '../config.ts';
import { lazy } from '../lazy.ts';
import { logger, logPort } from '../logger.ts';
import {
  artifactObjects,
  artifactPaths,
  contentStore,
  cursorCodec,
  jobStore,
  projectStore,
  reconcileStarter,
  reviewStore,
} from './adapters.ts';
import { executionBuilders } from './review.ts';
import { wire } from './wire.ts';

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

/**
 * The rerank stage (`SEARCH_RERANK=bedrock`): the Bedrock reranker of this Region, in the functions
 * bound to it (the source search); null when off or unbound (project search, a review's tools).
 */
export const reranker = lazy<Reranker | null>(() => {
  const modelId = config.RERANK_MODEL_ID;
  return config.SEARCH_RERANK === 'bedrock' && modelId
    ? new BedrockReranker(
        traced(new BedrockAgentRuntimeClient({ retryMode: 'adaptive', maxAttempts: 3 })),
        BedrockReranker.modelArn(process.env.AWS_REGION ?? 'us-east-1', modelId),
      )
    : null;
});

/** The projects the search profile reads: ready ones kept a minute of the function's life. */
const readyProjects = lazy(() => cachedReadyProjects(projectStore(), { ttlMs: 60_000 }));

export const searchIndexStates = lazy(() => new DynamoSearchIndexStates(dynamo, resource('table')));
const indexLock = lazy(() => new DynamoIndexLock(dynamo, resource('table')));

/** Hybrid search's fusion settings (`SearchDeps['fusion']`). */
const fusion = () => ({
  lexicalK: config.SEARCH_LEXICAL_RRF_K,
  semanticK: config.SEARCH_SEMANTIC_RRF_K,
  semanticWeight: config.SEARCH_SEMANTIC_WEIGHT,
  namedWeight: config.SEARCH_NAMED_WEIGHT,
  expansionWeight: config.SEARCH_EXPANSION_WEIGHT,
  proximityPairs: config.SEARCH_PROXIMITY_PAIRS,
  feedbackTerms: config.SEARCH_FEEDBACK_TERMS,
  rerankDepth: config.SEARCH_RERANK_DEPTH,
  coverageWeight: config.SEARCH_COVERAGE_WEIGHT,
  coverageDepth: config.SEARCH_COVERAGE_DEPTH,
});

/**
 * The search profile: the functions that open project indexes (LanceDB, deployed as a layer): the
 * search, read-source and reconcile routes, the indexing tasks (`SearchDeps`, `IndexingDeps`,
 * `ReconcileDeps` all read from it) and, with `toolWiring`, the review's tools step.
 */
export function searchWiring(log: Logger = logger) {
  return wire({
    projects: readyProjects,
    jobs: jobStore,
    reviews: reviewStore,
    states: searchIndexStates,
    index: sourceIndex,
    embedder,
    lock: indexLock,
    artifacts: artifactObjects,
    documents: contentStore,
    starter: reconcileStarter,
    fusion,
    reranker,
    log: () => logPort(log),
    cursors: () => cursorCodec,
    artifactPaths: () => artifactPaths,
  });
}

/** The review's tools step: the execution's deps and search and source reading on its project. */
export function toolWiring(): ToolDeps {
  const search = searchWiring();
  const tools: ToolDeps['tools'] = (execution) => {
    // The project's index location, read once per step (not once per source read).
    let location: Promise<string | null> | undefined;
    const indexLocation = () => {
      location ??= requireProject(search.projects, execution.orgId, execution.projectId).then(
        (project) => project.indexLocation,
      );
      return location;
    };
    return {
      search: ({ query, modes, filters, fileName, maxHits }) =>
        searchSources(search, {
          orgId: execution.orgId,
          projectId: execution.projectId,
          search: {
            query,
            mode: modes.length === 2 ? 'hybrid' : modes[0] === 'exact' ? 'exact' : 'semantic',
            maxHits,
            ...(fileName ? { fileName } : {}),
            ...(filters.entityTypes ? { entityTypes: filters.entityTypes } : {}),
          },
          ...(filters.fileIds ? { fileIds: filters.fileIds } : {}),
        }),
      passages: async (uri) => {
        const at = await indexLocation();
        return at ? search.index.passagesOf(at, uri) : [];
      },
    };
  };
  return wire({ ...executionBuilders(), tools: () => tools });
}
