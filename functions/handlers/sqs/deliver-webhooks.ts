import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import { ChangeMessageVisibilityCommand } from '@aws-sdk/client-sqs';
import middy from '@middy/core';
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { fetchWebhookSender } from '../../adapters/http/webhook-sender.ts';
import type { WebhookMessage } from '../../core/webhooks/model.ts';
import { deliverWebhook } from '../../core/webhooks/webhooks.ts';
import { sqs } from '../../shared/clients.ts';
import { config, resource } from '../../shared/config.ts';
import { signingKey, webhookStore } from '../../shared/container.ts';
import { logger } from '../../shared/logger.ts';

/**
 * Webhook delivery from the webhook queue. A failed delivery stays on the queue with a growing
 * visibility timeout (the backoff); after the queue's maxReceiveCount it moves to the dead-letter queue.
 */
export const handler = middy<SQSEvent, SQSBatchResponse>()
  .use(injectLambdaContext(logger, { resetKeys: true }))
  .handler(async (event: SQSEvent): Promise<SQSBatchResponse> => {
    const failures: { itemIdentifier: string }[] = [];
    const serviceKey = await signingKey();
    for (const record of event.Records) {
      const attempt = Number(record.attributes.ApproximateReceiveCount ?? 1);
      let message: WebhookMessage;
      try {
        message = JSON.parse(record.body) as WebhookMessage;
      } catch {
        logger.error('Dropping an unreadable webhook message', { messageId: record.messageId });
        continue;
      }
      const outcome = await deliverWebhook(
        {
          webhooks: webhookStore(),
          sender: fetchWebhookSender,
          serviceKey,
          allowPrivate: config.WEBHOOK_ALLOW_PRIVATE_TARGETS,
          retryBaseSeconds: config.WEBHOOK_RETRY_BASE_SECONDS,
        },
        { message, attempt },
      );
      logger.info('Webhook delivery', {
        eventId: message.payload?.eventId,
        orgId: message.orgId,
        attempt,
        outcome,
      });
      if (outcome.kind !== 'retry') continue;
      failures.push({ itemIdentifier: record.messageId });
      await sqs
        .send(
          new ChangeMessageVisibilityCommand({
            QueueUrl: resource('webhookQueue'),
            ReceiptHandle: record.receiptHandle,
            VisibilityTimeout: outcome.delaySeconds,
          }),
        )
        .catch((error: Error) => logger.warn('Could not set the retry delay', { error: error.message }));
    }
    return { batchItemFailures: failures };
  });
