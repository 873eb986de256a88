import {
  DynamoApiKeyStore,
  DynamoRateLimiter,
  DynamoSessionStore,
} from '../../adapters/dynamodb/auth-store.ts';
import { DynamoContentReader } from '../../adapters/dynamodb/content-reader.ts';
import { DynamoContentStore } from '../../adapters/dynamodb/content-store.ts';
import { DynamoCreditLedger } from '../../adapters/dynamodb/credit-ledger.ts';
import { DynamoJobStore } from '../../adapters/dynamodb/job-store.ts';
import { DynamoOrganizationStore } from '../../adapters/dynamodb/organization-store.ts';
import { DynamoProjectStore } from '../../adapters/dynamodb/project-store.ts';
import { DynamoProjectTotalsWriter } from '../../adapters/dynamodb/project-totals.ts';
import { DynamoReviewStore } from '../../adapters/dynamodb/review-store.ts';
import { DynamoRevisionStore } from '../../adapters/dynamodb/revision-store.ts';
import { DynamoWebhookStore } from '../../adapters/dynamodb/webhook-store.ts';
import { S3ArtifactStorage, S3ObjectStore } from '../../adapters/s3/object-store.ts';
import { S3ProjectIndexStore } from '../../adapters/s3/project-index-store.ts';
import { S3UploadStorage } from '../../adapters/s3/upload-storage.ts';
import { StepFunctionsStarter } from '../../adapters/sfn/execution-starter.ts';
import { SqsWebhookQueue } from '../../adapters/sqs/webhook-queue.ts';
import { cachedKeyReads } from '../../core/auth/key-cache.ts';
import { ArtifactPaths } from '../../core/content/artifacts.ts';
import type { NormalizeRegionsDeps } from '../../core/content/normalize-regions.ts';
import type { ProcessingStarter } from '../../core/jobs/ports.ts';
import { CursorCodec } from '../../core/pagination/cursor.ts';
import type { ProvisioningStarter } from '../../core/projects/ports.ts';
import type { ExecutionStarter } from '../../core/reviews/ports.ts';
import type { ReconcileDeps } from '../../core/search/reconcile.ts';
import { HmacTokenSigner } from '../../core/signing/signer.ts';
import { dynamo, s3, sfn, sqs } from '../clients.ts';
import { config, resource } from '../config.ts';
import { lazy } from '../lazy.ts';
import type { ResourceNameOfKind } from '../resources.ts';
import { signingKey } from './secrets.ts';

/**
 * Every adapter the profiles share, each built once per cold start on first use (`lazy`: locally, once
 * per function), so a function needs only the configuration of what it touches. The profiles
 * (`api.ts`, `search.ts`, `pipeline.ts`, `engine.ts`, `review.ts`) pick from here; nothing here loads
 * the extraction engine, the index library or a model client.
 */
export const projectStore = lazy(() => new DynamoProjectStore(dynamo, resource('table')));
export const apiKeyStore = lazy(() => new DynamoApiKeyStore(dynamo, resource('table')));
/** What authentication reads of keys: the store, behind the function's cache of verified keys (its revocation bound). */
export const verifiedKeys = lazy(() =>
  cachedKeyReads(apiKeyStore(), { ttlMs: config.API_KEY_CACHE_SECONDS * 1000 }),
);
export const sessionStore = lazy(() => new DynamoSessionStore(dynamo, resource('table')));
export const rateLimiter = lazy(() => new DynamoRateLimiter(dynamo, resource('table')));
export const organizationStore = lazy(() => new DynamoOrganizationStore(dynamo, resource('table')));
export const jobStore = lazy(() => new DynamoJobStore(dynamo, resource('table')));
export const contentReader = lazy(() => new DynamoContentReader(dynamo, resource('table')));
export const contentStore = lazy(() => new DynamoContentStore(dynamo, resource('table')));
export const projectTotalsWriter = lazy(() => new DynamoProjectTotalsWriter(dynamo, resource('table')));
export const revisionStore = lazy(() => new DynamoRevisionStore(dynamo, resource('table')));
export const creditLedger = lazy(() => new DynamoCreditLedger(dynamo, resource('table')));
export const webhookStore = lazy(() => new DynamoWebhookStore(dynamo, resource('table')));
/** Reviews, executions and their events: one store. */
export const reviewStore = lazy(() => new DynamoReviewStore(dynamo, resource('table')));

/** The uploads bucket: signed uploads in, verified bytes out (one adapter for both sides). */
export const uploadStorage = lazy(() => new S3UploadStorage(s3, resource('uploadsBucket')));
/** The artifacts bucket as plain objects (page batches, stored passages, review conversations). */
export const artifactObjects = lazy(() => new S3ObjectStore(s3, resource('artifactsBucket')));
/** The artifacts bucket's downloads (signed GET URLs). */
export const artifactStorage = lazy(() => new S3ArtifactStorage(s3, resource('artifactsBucket')));
export const projectIndexStore = lazy(() => new S3ProjectIndexStore(s3, resource('indexBucket')));
export const webhookQueue = lazy(() => new SqsWebhookQueue(sqs, resource('webhookQueue')));

/** A state machine's executions, each named after what it works for (a retried start is a no-op). */
const starter = (machine: ResourceNameOfKind<'stateMachine'>) =>
  new StepFunctionsStarter(sfn, resource(machine));
export const provisioningStarter = lazy((): ProvisioningStarter => {
  const machine = starter('provisionStateMachine');
  return { start: (orgId, projectId) => machine.start(projectId, { orgId, projectId }) };
});
export const processingStarter = lazy((): ProcessingStarter => {
  const machine = starter('processJobStateMachine');
  return { start: (orgId, jobId) => machine.start(jobId, { orgId, jobId }) };
});
export const normalizeRegionsStarter = lazy((): NormalizeRegionsDeps['starter'] => {
  const machine = starter('normalizeRegionsStateMachine');
  return { start: (orgId, jobId, fileIds) => machine.start(jobId, { orgId, jobId, fileIds }) };
});
export const reconcileStarter = lazy((): ReconcileDeps['starter'] => {
  const machine = starter('reconcileIndexStateMachine');
  return { start: (orgId, jobId, fileIds) => machine.start(jobId, { orgId, jobId, fileIds }) };
});
export const executionStarter = lazy((): ExecutionStarter => {
  const machine = starter('reviewExecutionStateMachine');
  return { start: (orgId, executionId) => machine.start(executionId, { orgId, executionId }) };
});

export const cursorCodec = async () => new CursorCodec(await signingKey());
export const uploadTokens = async () => new HmacTokenSigner(await signingKey(), 'upload-token');
export const artifactPaths = async () => new ArtifactPaths(await signingKey());
