import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { DynamoApiKeyStore, DynamoRateLimiter, DynamoSessionStore } from '../adapters/dynamodb/auth-store.ts';
import { DynamoOrganizationStore } from '../adapters/dynamodb/organization-store.ts';
import { DynamoProjectStore } from '../adapters/dynamodb/project-store.ts';
import { S3ProjectIndexStore } from '../adapters/s3/project-index-store.ts';
import { StepFunctionsProvisioningStarter } from '../adapters/sfn/provisioning-starter.ts';
import { CursorCodec } from '../core/pagination/cursor.ts';
import { dynamo, s3, sfn } from './clients.ts';
import { config, required } from './config.ts';

/**
 * The composition module: the one place that picks adapters. Each is built on first use, so a
 * function only needs the configuration of what it actually touches.
 */
function lazy<T>(build: () => T): () => T {
  let value: T | undefined;
  return () => {
    value ??= build();
    return value;
  };
}

export const projectStore = lazy(() => new DynamoProjectStore(dynamo, required('TABLE_NAME')));
export const apiKeyStore = lazy(() => new DynamoApiKeyStore(dynamo, required('TABLE_NAME')));
export const sessionStore = lazy(() => new DynamoSessionStore(dynamo, required('TABLE_NAME')));
export const rateLimiter = lazy(() => new DynamoRateLimiter(dynamo, required('TABLE_NAME')));
export const organizationStore = lazy(() => new DynamoOrganizationStore(dynamo, required('TABLE_NAME')));
export const provisioningStarter = lazy(
  () => new StepFunctionsProvisioningStarter(sfn, required('PROVISION_STATE_MACHINE_ARN')),
);
export const projectIndexStore = lazy(() => new S3ProjectIndexStore(s3, required('INDEX_BUCKET')));

let cursorCodecPromise: Promise<CursorCodec> | undefined;

/** The cursor key comes from Secrets Manager on AWS (fetched once per cold start) or from the environment locally. */
export function cursorCodec(): Promise<CursorCodec> {
  cursorCodecPromise ??= (async () => {
    if (config.CURSOR_SIGNING_KEY) return new CursorCodec(config.CURSOR_SIGNING_KEY);
    const secretId = required('CURSOR_SIGNING_SECRET_ARN');
    const secret = await new SecretsManagerClient({}).send(new GetSecretValueCommand({ SecretId: secretId }));
    if (!secret.SecretString || secret.SecretString.length < 32)
      throw new Error('Cursor signing secret is empty');
    return new CursorCodec(secret.SecretString);
  })();
  cursorCodecPromise.catch(() => {
    cursorCodecPromise = undefined;
  });
  return cursorCodecPromise;
}
