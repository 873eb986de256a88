import { BedrockRuntimeClient } from '@aws-sdk/client-bedrock-runtime';
import { BedrockAnswerer } from '../../adapters/answerers/bedrock-answerer.ts';
import { ExtractiveAnswerer } from '../../adapters/answerers/extractive-answerer.ts';
import { DynamoReviewEventStore } from '../../adapters/dynamodb/review-event-store.ts';
import type { Answerer } from '../../core/reviews/answerer.ts';
import type { ExecutionDeps } from '../../core/reviews/execute.ts';
import { dynamo, traced } from '../clients.ts';
import { config, resource } from '../config.ts';
import { lazy } from '../lazy.ts';
import { apiKeyStore, artifactObjects, artifactPaths, reviewStore } from './adapters.ts';
import { type Builders, wire } from './wire.ts';

const answerer = lazy((): Answerer => {
  // The extractive answerer stands in for the model locally: its function must be bound to the model all the same.
  const modelId = resource('answerModel');
  return config.ANSWERER === 'extractive'
    ? new ExtractiveAnswerer()
    : new BedrockAnswerer(
        traced(new BedrockRuntimeClient({ retryMode: 'adaptive', maxAttempts: 6 })),
        modelId,
      );
});

const reviewEventLog = lazy(() => new DynamoReviewEventStore(dynamo, resource('table')));

/**
 * What a review execution's steps need (`ExecutionDeps`; the tools step adds the project's tools:
 * `search.ts`). A step's function is given only the configuration (and grants) of what it touches:
 * begin and fail have neither the answer model nor the signing key.
 */
export function executionBuilders(): Builders<ExecutionDeps> {
  return {
    reviews: reviewStore,
    events: reviewStore,
    conversations: artifactObjects,
    answerer,
    artifactPaths: () => artifactPaths,
    settings: () => ({
      heartbeatMs: config.REVIEW_HEARTBEAT_MS,
      responseTargetMs: config.REVIEW_RESPONSE_TARGET_MS,
    }),
  };
}

/**
 * The review profile: the execution's steps, the review stream (its event log and the key check) and
 * the ended-executions rule's failing of an execution. Each member built when first read.
 */
export const reviewWiring = lazy(() =>
  wire({
    ...executionBuilders(),
    apiKeys: apiKeyStore,
    eventLog: reviewEventLog,
  }),
);
