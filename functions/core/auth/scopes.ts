/** Scopes an API key can carry. Which route needs which is in `functions/shared/routes.ts`. */
export const SCOPES = [
  'projects:write',
  'jobs:read',
  'jobs:write',
  'reviews:read',
  'reviews:write',
  'artifacts:read',
] as const;
export type Scope = (typeof SCOPES)[number];
