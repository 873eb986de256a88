/**
 * Settings the integration tests give every function of their local stack (global-setup.ts), where a
 * test must know them too.
 */
export const STACK_SETTINGS = {
  /** A function keeps a verified key this long: the revocation bound the auth tests wait out. */
  API_KEY_CACHE_SECONDS: 1,
} as const;
