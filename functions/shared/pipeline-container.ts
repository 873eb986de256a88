import type { Logger } from '@aws-lambda-powertools/logger';
import { DynamoCreditLedger } from '../adapters/dynamodb/content-store.ts';
import { engineExtractor } from '../adapters/extraction/engine.ts';
import { S3ObjectStore } from '../adapters/s3/object-store.ts';
import { SqsWebhookQueue } from '../adapters/sqs/webhook-queue.ts';
import type { PipelineDeps, PipelineSettings } from '../core/pipeline/ports.ts';
import { dynamo, s3, sqs } from './clients.ts';
import { config, resource } from './config.ts';
import { artifactObjects, contentStore, jobStore, projectTotalsWriter } from './container.ts';
import { lazy } from './lazy.ts';
import { logger, logPort } from './logger.ts';

const uploads = lazy(() => new S3ObjectStore(s3, resource('uploadsBucket')));
const credits = lazy(() => new DynamoCreditLedger(dynamo, resource('table')));
const webhooks = lazy(() => new SqsWebhookQueue(sqs, resource('webhookQueue')));

/**
 * Adapters of the pipeline's tasks, each built on first use: a task only needs the configuration
 * (and grants) of what it touches.
 */
export async function pipelineDeps(log: Logger = logger): Promise<PipelineDeps> {
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
    extractor: engineExtractor,
    log: logPort(log),
  };
}

export function pipelineSettings(): PipelineSettings {
  return {
    creditsPerPage: config.CREDITS_PER_PAGE,
    pagesPerBatch: config.PAGES_PER_BATCH,
    maxPagesPerFile: config.MAX_PAGES_PER_FILE,
  };
}
