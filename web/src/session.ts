import { createClient, type PsaClient } from '@project-source/sdk';

const KEY = 'psa.apiKey';

/**
 * The API key lives in sessionStorage (gone when the tab closes) and only goes to this origin, which
 * serves both the viewer and the API (locally the local server, on AWS one CloudFront distribution).
 */
export function signedIn(): PsaClient | null {
  const apiKey = sessionStorage.getItem(KEY);
  if (!apiKey) return null;
  try {
    return createClient({ baseUrl: window.location.origin, apiKey });
  } catch {
    sessionStorage.removeItem(KEY);
    return null;
  }
}

/** Checks the key with one request before keeping it. */
export async function signIn(apiKey: string): Promise<PsaClient> {
  const client = createClient({
    baseUrl: window.location.origin,
    apiKey: apiKey.trim(),
    retry: { maxRetries: 1 },
  });
  for await (const _ of client.projects.list({ limit: 1 })) break;
  sessionStorage.setItem(KEY, apiKey.trim());
  return client;
}

export function signOut(): void {
  sessionStorage.removeItem(KEY);
}
