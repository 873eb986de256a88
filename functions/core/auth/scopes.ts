/** Scopes an API key can carry. Which route needs which is in its definition (`functions/handlers/http/<name>.endpoint.ts`). */
export const SCOPES = [
  'projects:write',
  'jobs:read',
  'jobs:write',
  'reviews:read',
  'reviews:write',
  'artifacts:read',
] as const;
export type Scope = (typeof SCOPES)[number];
