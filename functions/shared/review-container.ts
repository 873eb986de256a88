import { BedrockRuntimeClient } from '@aws-sdk/client-bedrock-runtime';
import { BedrockAnswerer } from '../adapters/answerers/bedrock-answerer.ts';
import { ExtractiveAnswerer } from '../adapters/answerers/extractive-answerer.ts';
import { DynamoReviewStore } from '../adapters/dynamodb/review-store.ts';
import { StepFunctionsStarter } from '../adapters/sfn/execution-starter.ts';
import type { Answerer } from '../core/reviews/answerer.ts';
import type { ExecutionDeps } from '../core/reviews/execute.ts';
import type { ExecutionStarter } from '../core/reviews/ports.ts';
import { dynamo, sfn, traced } from './clients.ts';
import { config, resource } from './config.ts';
import { artifactObjects, artifactPaths } from './container.ts';
import { lazy } from './lazy.ts';

/** Reviews, executions and their events: one store. */
export const reviewStore = lazy(() => new DynamoReviewStore(dynamo, resource('table')));

export const executionStarter = lazy((): ExecutionStarter => {
  const starter = new StepFunctionsStarter(sfn, resource('reviewExecutionStateMachine'));
  return { start: (orgId, executionId) => starter.start(executionId, { orgId, executionId }) };
});

export const answerer = lazy((): Answerer => {
  // The extractive answerer stands in for the model locally: its function must be bound to the model all the same.
  const modelId = resource('answerModel');
  return config.ANSWERER === 'extractive'
    ? new ExtractiveAnswerer()
    : new BedrockAnswerer(
        traced(new BedrockRuntimeClient({ retryMode: 'adaptive', maxAttempts: 6 })),
        modelId,
      );
});

/**
 * What the execution's steps need (the tools step adds the project's tools: review-tools-container.ts),
 * each adapter built on first use: a step's function is given only the configuration (and grants) of
 * what that step touches (begin and fail have neither the answer model nor the signing key).
 */
export function executionDeps(): ExecutionDeps {
  return {
    get reviews() {
      return reviewStore();
    },
    get events() {
      return reviewStore();
    },
    get conversations() {
      return artifactObjects();
    },
    get answerer() {
      return answerer();
    },
    artifactPaths,
    settings: { heartbeatMs: config.REVIEW_HEARTBEAT_MS, responseTargetMs: config.REVIEW_RESPONSE_TARGET_MS },
  };
}
