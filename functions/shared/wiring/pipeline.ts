import type { Logger } from '@aws-lambda-powertools/logger';
import { fetchWebhookSender } from '../../adapters/http/webhook-sender.ts';
import type { JobDeps, PipelineSettings } from '../../core/pipeline/ports.ts';
import { DEFAULT_LIMITS } from '../../engine/limits.ts';
import { config } from '../config.ts';
import { logger, logPort } from '../logger.ts';
import {
  artifactObjects,
  contentStore,
  creditLedger,
  jobStore,
  projectIndexStore,
  projectStore,
  projectTotalsWriter,
  revisionStore,
  uploadStorage,
  webhookQueue,
  webhookStore,
} from './adapters.ts';
import { signingKey } from './secrets.ts';
import { type Builders, wire } from './wire.ts';

export function pipelineSettings(): PipelineSettings {
  return {
    creditsPerPage: config.CREDITS_PER_PAGE,
    pagesPerBatch: config.PAGES_PER_BATCH,
    // The engine's own limit: inspection refuses the files that extraction would.
    maxPagesPerFile: DEFAULT_LIMITS.maxPages,
  };
}

/** The job's adapters (`JobDeps`), logging through this invocation's logger. */
function jobBuilders(log: Logger): Builders<JobDeps> {
  return {
    jobs: jobStore,
    uploads: uploadStorage,
    artifacts: artifactObjects,
    content: contentStore,
    credits: creditLedger,
    totals: projectTotalsWriter,
    webhooks: webhookQueue,
    log: () => logPort(log),
  };
}

/**
 * What the pipeline's functions without the engine use: the job's bookkeeping tasks, the project's
 * provisioning tasks, the expiry sweep and the ended-executions rule, and the webhook consumer.
 * Nothing here loads the PDF engine (`engine.ts` adds it for the tasks that read PDFs).
 */
export function pipelineBuilders(log: Logger = logger) {
  return {
    ...jobBuilders(log),
    settings: pipelineSettings,
    /** Revision links between sheets, recorded once a file's sheets are written. */
    revisions: revisionStore,
    /** The regions a normalization rewrites. */
    regions: contentStore,
    projects: projectStore,
    projectIndexes: projectIndexStore,
    // The webhook consumer's: where each organization's webhook points, the sender, the queue's backoff.
    webhookTargets: webhookStore,
    webhookQueue,
    webhookSender: () => fetchWebhookSender,
    signingKey: () => signingKey,
  };
}

/** The pipeline profile: each member built when first read (adapters once per cold start). */
export function pipelineWiring(log: Logger = logger) {
  return wire(pipelineBuilders(log));
}
