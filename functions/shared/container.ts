import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { DynamoApiKeyStore, DynamoRateLimiter, DynamoSessionStore } from '../adapters/dynamodb/auth-store.ts';
import { DynamoContentReader } from '../adapters/dynamodb/content-reader.ts';
import { DynamoContentStore } from '../adapters/dynamodb/content-store.ts';
import { DynamoJobStore } from '../adapters/dynamodb/job-store.ts';
import { DynamoOrganizationStore } from '../adapters/dynamodb/organization-store.ts';
import { DynamoProjectStore } from '../adapters/dynamodb/project-store.ts';
import { DynamoProjectTotalsWriter } from '../adapters/dynamodb/project-totals.ts';
import { DynamoReviewEventStore } from '../adapters/dynamodb/review-event-store.ts';
import { DynamoWebhookStore } from '../adapters/dynamodb/webhook-store.ts';
import { S3ArtifactStorage, S3ObjectStore } from '../adapters/s3/object-store.ts';
import { S3ProjectIndexStore } from '../adapters/s3/project-index-store.ts';
import { S3UploadStorage } from '../adapters/s3/upload-storage.ts';
import { StepFunctionsStarter } from '../adapters/sfn/execution-starter.ts';
import { ArtifactPaths } from '../core/content/artifacts.ts';
import type { NormalizeRegionsDeps } from '../core/content/normalize-regions.ts';
import type { ProcessingStarter } from '../core/jobs/ports.ts';
import { CursorCodec } from '../core/pagination/cursor.ts';
import type { ProvisioningStarter } from '../core/projects/ports.ts';
import { HmacTokenSigner } from '../core/signing/signer.ts';
import { dynamo, s3, sfn, traced } from './clients.ts';
import { config, resource } from './config.ts';
import { lazy } from './lazy.ts';
import { RESOURCES } from './resources.ts';

/**
 * The composition module: the one place that picks adapters. Each is built on first use, so a
 * function only needs the configuration of what it actually touches.
 */
export const projectStore = lazy(() => new DynamoProjectStore(dynamo, resource('table')));
export const apiKeyStore = lazy(() => new DynamoApiKeyStore(dynamo, resource('table')));
export const sessionStore = lazy(() => new DynamoSessionStore(dynamo, resource('table')));
export const rateLimiter = lazy(() => new DynamoRateLimiter(dynamo, resource('table')));
export const organizationStore = lazy(() => new DynamoOrganizationStore(dynamo, resource('table')));
export const provisioningStarter = lazy((): ProvisioningStarter => {
  const starter = new StepFunctionsStarter(sfn, resource('provisionStateMachine'));
  return { start: (orgId, projectId) => starter.start(projectId, { orgId, projectId }) };
});
export const projectIndexStore = lazy(() => new S3ProjectIndexStore(s3, resource('indexBucket')));

/** The signing key's fetch, per cold start (a failed fetch is tried again at the next call). */
const signingKeyFetch = lazy((): { promise?: Promise<string> } => ({}));

/**
 * The key that signs cursors and upload tokens: from Secrets Manager on AWS (fetched once per cold
 * start), from the environment locally (given only to the functions bound to the secret).
 */
function signingKey(): Promise<string> {
  const fetch = signingKeyFetch();
  fetch.promise ??= (async () => {
    if (config.SIGNING_KEY) return config.SIGNING_KEY;
    const secret = await traced(new SecretsManagerClient({})).send(
      new GetSecretValueCommand({ SecretId: resource('signingKey') }),
    );
    if (!secret.SecretString || secret.SecretString.length < 32)
      throw new Error('The signing secret is empty');
    return secret.SecretString;
  })();
  fetch.promise.catch(() => {
    fetch.promise = undefined;
  });
  return fetch.promise;
}

export { signingKey };

const originVerifyFetch = lazy((): { promise?: Promise<string | null> } => ({}));

/**
 * The value CloudFront sends as X-Origin-Verify, or null for a function not bound to the secret (the
 * review stream, behind origin access control; tests that call a handler in-process).
 */
export function originVerifyValue(): Promise<string | null> {
  const fetch = originVerifyFetch();
  fetch.promise ??= (async () => {
    if (config.ORIGIN_VERIFY) return config.ORIGIN_VERIFY;
    const secretId = config[RESOURCES.originVerify.env];
    if (!secretId) return null;
    const secret = await traced(new SecretsManagerClient({})).send(
      new GetSecretValueCommand({ SecretId: secretId }),
    );
    if (!secret.SecretString || secret.SecretString.length < 32)
      throw new Error('The origin secret is empty');
    return secret.SecretString;
  })();
  fetch.promise.catch(() => {
    fetch.promise = undefined;
  });
  return fetch.promise;
}

export const webhookStore = lazy(() => new DynamoWebhookStore(dynamo, resource('table')));

export async function cursorCodec(): Promise<CursorCodec> {
  return new CursorCodec(await signingKey());
}

export async function uploadTokens(): Promise<HmacTokenSigner> {
  return new HmacTokenSigner(await signingKey(), 'upload-token');
}

export async function artifactPaths(): Promise<ArtifactPaths> {
  return new ArtifactPaths(await signingKey());
}

export const contentReader = lazy(() => new DynamoContentReader(dynamo, resource('table')));
export const artifactStorage = lazy(() => new S3ArtifactStorage(s3, resource('artifactsBucket')));
/** The artifacts bucket as plain objects (page batches, stored passages), for the pipeline and indexing. */
export const artifactObjects = lazy(() => new S3ObjectStore(s3, resource('artifactsBucket')));
export const contentStore = lazy(() => new DynamoContentStore(dynamo, resource('table')));
export const projectTotalsWriter = lazy(() => new DynamoProjectTotalsWriter(dynamo, resource('table')));

export const jobStore = lazy(() => new DynamoJobStore(dynamo, resource('table')));
export const uploadStorage = lazy(() => new S3UploadStorage(s3, resource('uploadsBucket')));
export const processingStarter = lazy((): ProcessingStarter => {
  const starter = new StepFunctionsStarter(sfn, resource('processJobStateMachine'));
  return { start: (orgId, jobId) => starter.start(jobId, { orgId, jobId }) };
});
export const normalizeRegionsDeps = lazy((): NormalizeRegionsDeps => {
  const starter = new StepFunctionsStarter(sfn, resource('normalizeRegionsStateMachine'));
  return {
    projects: projectStore(),
    jobs: jobStore(),
    regions: contentStore(),
    starter: { start: (orgId, jobId, fileIds) => starter.start(jobId, { orgId, jobId, fileIds }) },
  };
});
export const reviewEventLog = lazy(() => new DynamoReviewEventStore(dynamo, resource('table')));
