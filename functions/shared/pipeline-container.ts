import type { Logger } from '@aws-lambda-powertools/logger';
import { DynamoCreditLedger } from '../adapters/dynamodb/credit-ledger.ts';
import { S3ObjectStore } from '../adapters/s3/object-store.ts';
import { SqsWebhookQueue } from '../adapters/sqs/webhook-queue.ts';
import { DEFAULT_LIMITS } from '../core/extraction/limits.ts';
import type { JobDeps, PipelineSettings } from '../core/pipeline/ports.ts';
import { dynamo, s3, sqs } from './clients.ts';
import { config, resource } from './config.ts';
import { artifactObjects, contentStore, jobStore, projectTotalsWriter } from './container.ts';
import { lazy } from './lazy.ts';
import { logger, logPort } from './logger.ts';

const uploads = lazy(() => new S3ObjectStore(s3, resource('uploadsBucket'), { keepLast: true }));
const credits = lazy(() => new DynamoCreditLedger(dynamo, resource('table')));
const webhooks = lazy(() => new SqsWebhookQueue(sqs, resource('webhookQueue')));

/**
 * Adapters of the job's bookkeeping tasks, each built on first use: a task only needs the
 * configuration (and grants) of what it touches. Nothing here loads the PDF engine, so the tasks
 * that fail, finalize, expire or recover jobs are deployed without its layer
 * (`engine-container.ts` adds it for the tasks that read PDFs).
 */
export async function jobDeps(log: Logger = logger): Promise<JobDeps> {
  return {
    get jobs() {
      return jobStore();
    },
    get uploads() {
      return uploads();
    },
    get artifacts() {
      return artifactObjects();
    },
    get content() {
      return contentStore();
    },
    get credits() {
      return credits();
    },
    get totals() {
      return projectTotalsWriter();
    },
    get webhooks() {
      return webhooks();
    },
    log: logPort(log),
  };
}

export function pipelineSettings(): PipelineSettings {
  return {
    creditsPerPage: config.CREDITS_PER_PAGE,
    pagesPerBatch: config.PAGES_PER_BATCH,
    // The engine's own limit: inspection refuses the files that extraction would.
    maxPagesPerFile: DEFAULT_LIMITS.maxPages,
  };
}
