import { GetSecretValueCommand } from '@aws-sdk/client-secrets-manager';
import { secretsManager } from '../clients.ts';
import { config, resource } from '../config.ts';
import { lazy } from '../lazy.ts';
import { RESOURCES } from '../resources.ts';

/** A secret's value, fetched once per cold start (a failed fetch is tried again at the next call). */
function fetchedOnce<T>(fetch: () => Promise<T>): () => Promise<T> {
  const state = lazy((): { promise?: Promise<T> } => ({}));
  return () => {
    const held = state();
    held.promise ??= fetch();
    held.promise.catch(() => {
      held.promise = undefined;
    });
    return held.promise;
  };
}

async function secretValue(secretId: string, what: string): Promise<string> {
  const secret = await secretsManager.send(new GetSecretValueCommand({ SecretId: secretId }));
  if (!secret.SecretString || secret.SecretString.length < 32) throw new Error(`The ${what} secret is empty`);
  return secret.SecretString;
}

/**
 * The key that signs cursors, upload tokens and artifact paths: from Secrets Manager on AWS, from the
 * environment locally (given only to the functions bound to the secret).
 */
export const signingKey = fetchedOnce(
  async () => config.SIGNING_KEY ?? secretValue(resource('signingKey'), 'signing'),
);

/**
 * The value CloudFront sends as X-Origin-Verify, or null for a function not bound to the secret (the
 * review stream, behind origin access control; tests that call a handler in-process).
 */
export const originVerifyValue = fetchedOnce(async (): Promise<string | null> => {
  if (config.ORIGIN_VERIFY) return config.ORIGIN_VERIFY;
  const secretId = config[RESOURCES.originVerify.env];
  return secretId ? secretValue(secretId, 'origin') : null;
});
