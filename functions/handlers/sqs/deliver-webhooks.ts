import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import middy from '@middy/core';
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { WebhookMessageSchema } from '../../core/webhooks/model.ts';
import { deliverWebhook } from '../../core/webhooks/webhooks.ts';
import { config } from '../../shared/config.ts';
import { logger } from '../../shared/logger.ts';
import { sqsConsumer } from '../../shared/sqs-batch.ts';
import { pipelineWiring } from '../../shared/wiring/pipeline.ts';

/** A delivery to try again later: the record stays on the queue, hidden for the backoff's delay. */
class DeliveryRetryError extends Error {}

/**
 * Webhook delivery from the webhook queue. A failed delivery stays on the queue with a growing
 * visibility timeout (the backoff); after the queue's maxReceiveCount it moves to the dead-letter queue,
 * as does a message that is not a webhook message.
 */
export const handler = middy<SQSEvent, SQSBatchResponse>()
  .use(injectLambdaContext(logger, { resetKeys: true }))
  .handler(
    // A record of the webhook queue: its body is one webhook message, its receive count the attempt.
    sqsConsumer(WebhookMessageSchema, async (record) => {
      const pipeline = pipelineWiring();
      const message = record.body;
      const attempt = Math.max(1, Number(record.attributes.ApproximateReceiveCount) || 1);
      const outcome = await deliverWebhook(
        {
          webhooks: pipeline.webhookTargets,
          sender: pipeline.webhookSender,
          serviceKey: await pipeline.signingKey(),
          allowPrivate: config.WEBHOOK_ALLOW_PRIVATE_TARGETS,
          retryBaseSeconds: config.WEBHOOK_RETRY_BASE_SECONDS,
        },
        { message, attempt },
      );
      logger.info('Webhook delivery', {
        eventId: message.payload.eventId,
        orgId: message.orgId,
        attempt,
        outcome,
      });
      if (outcome.kind !== 'retry') return;
      await pipeline.webhookQueue
        .retryLater(record.receiptHandle, outcome.delaySeconds)
        .catch((error: Error) => logger.warn('Could not set the retry delay', { error: error.message }));
      throw new DeliveryRetryError(outcome.reason);
    }),
  );
