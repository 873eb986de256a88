import { SCOPES, type Scope } from '../functions/core/auth/scopes.ts';
import { newId } from '../functions/core/ids.ts';

/**
 * Organizations, sessions and keys for local use, tests and the operator's bootstrap command
 * (bin/bootstrap-organization.ts). There is no public API to create organizations; an operator does it. Imported lazily: the stores read their configuration on import.
 */
export async function seedOrganization(input: {
  orgId?: string;
  name: string;
  credits: number;
  plan?: 'standard' | 'enterprise';
}): Promise<string> {
  const { organizationStore } = await import('../functions/shared/wiring/adapters.ts');
  const orgId = input.orgId ?? newId('org');
  await organizationStore().create({
    id: orgId,
    name: input.name,
    creditBalance: input.credits,
    grantEntryId: newId('led'),
    ...(input.plan ? { plan: input.plan } : {}),
  });
  return orgId;
}

export async function issueCredentials(input: {
  orgId: string;
  userId?: string;
  scopes?: Scope[];
  label?: string;
}): Promise<{ sessionToken: string; apiKey: string; keyId: string; userId: string }> {
  const [{ generateSessionToken }, { createApiKey }, { apiKeyStore, organizationStore, sessionStore }] =
    await Promise.all([
      import('../functions/core/auth/secrets.ts'),
      import('../functions/core/auth/api-keys.ts'),
      import('../functions/shared/wiring/adapters.ts'),
    ]);
  const userId = input.userId ?? newId('usr');
  const session = generateSessionToken();
  await sessionStore().put(session.tokenHash, {
    orgId: input.orgId,
    userId,
    expiresAt: new Date(Date.now() + 30 * 24 * 3600 * 1000).toISOString(),
  });
  const { key, secret } = await createApiKey(
    { keys: apiKeyStore(), plans: organizationStore() },
    {
      principal: {
        orgId: input.orgId,
        kind: 'session',
        keyId: null,
        userId,
        scopes: [],
        rateLimitPerMinute: null,
      },
      label: input.label ?? 'local development',
      scopes: input.scopes ?? [...SCOPES],
      expiresAt: null,
    },
  );
  return { sessionToken: session.token, apiKey: secret, keyId: key.id, userId };
}
