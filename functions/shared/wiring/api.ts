import type { NormalizeRegionsDeps } from '../../core/content/normalize-regions.ts';
import { lazy } from '../lazy.ts';
import {
  apiKeyStore,
  artifactPaths,
  artifactStorage,
  contentReader,
  contentStore,
  cursorCodec,
  executionStarter,
  jobStore,
  normalizeRegionsStarter,
  organizationStore,
  processingStarter,
  projectStore,
  provisioningStarter,
  reviewStore,
  uploadStorage,
  uploadTokens,
  webhookStore,
} from './adapters.ts';
import { signingKey } from './secrets.ts';
import { wire } from './wire.ts';

/**
 * The API profile: what the HTTP routes without the project index use (the index's routes: `search.ts`;
 * the authentication every route shares, `http/api-handler.ts`, takes its stores from `adapters.ts`).
 * One object per function (per cold start), each member built when first read.
 */
export const apiWiring = lazy(() =>
  wire({
    projects: projectStore,
    organizations: organizationStore,
    apiKeys: apiKeyStore,
    jobs: jobStore,
    uploads: uploadStorage,
    content: contentReader,
    downloads: artifactStorage,
    reviews: reviewStore,
    webhooks: webhookStore,
    provisioning: provisioningStarter,
    processing: processingStarter,
    executions: executionStarter,
    /** The region normalization request: it plans and starts a job. */
    normalizeRegions: (): NormalizeRegionsDeps => ({
      projects: projectStore(),
      jobs: jobStore(),
      regions: contentStore(),
      starter: normalizeRegionsStarter(),
    }),
    /** What the extracted-content listings read: their cursors and artifact paths are signed. */
    listings: () => async () => ({
      projects: projectStore(),
      content: contentReader(),
      cursors: await cursorCodec(),
      artifacts: await artifactPaths(),
    }),
    // Secrets and what they sign (fetched once per cold start).
    signingKey: () => signingKey,
    cursors: () => cursorCodec,
    uploadTokens: () => uploadTokens,
    artifactPaths: () => artifactPaths,
  }),
);

export type ApiWiring = ReturnType<typeof apiWiring>;
