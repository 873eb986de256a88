import {
  DynamoContentStore,
  DynamoCreditLedger,
  DynamoProjectTotalsWriter,
} from '../adapters/dynamodb/content-store.ts';
import { engineExtractor } from '../adapters/extraction/engine.ts';
import { S3ObjectStore } from '../adapters/s3/object-store.ts';
import { SqsWebhookQueue } from '../adapters/sqs/webhook-queue.ts';
import type { PipelineDeps, PipelineSettings } from '../core/pipeline/steps.ts';
import { dynamo, s3, sqs } from './clients.ts';
import { config, required } from './config.ts';
import { jobStore } from './container.ts';
import { lazy } from './lazy.ts';

const uploads = lazy(() => new S3ObjectStore(s3, required('UPLOADS_BUCKET')));
const artifacts = lazy(() => new S3ObjectStore(s3, required('ARTIFACTS_BUCKET')));
const content = lazy(() => new DynamoContentStore(dynamo, required('TABLE_NAME')));
const credits = lazy(() => new DynamoCreditLedger(dynamo, required('TABLE_NAME')));
const totals = lazy(() => new DynamoProjectTotalsWriter(dynamo, required('TABLE_NAME')));
const webhooks = lazy(() => new SqsWebhookQueue(sqs, required('WEBHOOK_QUEUE_URL')));

/**
 * Adapters of the pipeline's tasks, each built on first use: a task only needs the configuration
 * (and grants) of what it touches.
 */
export async function pipelineDeps(): Promise<PipelineDeps> {
  return {
    get jobs() {
      return jobStore();
    },
    get uploads() {
      return uploads();
    },
    get artifacts() {
      return artifacts();
    },
    get content() {
      return content();
    },
    get credits() {
      return credits();
    },
    get totals() {
      return totals();
    },
    get webhooks() {
      return webhooks();
    },
    extractor: engineExtractor,
  };
}

export function pipelineSettings(): PipelineSettings {
  return {
    creditsPerPage: config.CREDITS_PER_PAGE,
    pagesPerBatch: config.PAGES_PER_BATCH,
    maxPagesPerFile: config.MAX_PAGES_PER_FILE,
  };
}
