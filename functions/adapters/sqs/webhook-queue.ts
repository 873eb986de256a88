import { ChangeMessageVisibilityCommand, SendMessageCommand, type SQSClient } from '@aws-sdk/client-sqs';
import type { WebhookQueue } from '../../core/pipeline/ports.ts';

/** Job outcomes go through a queue: delivery (signing, retries with backoff, dead letters) is the consumer's. */
export class SqsWebhookQueue implements WebhookQueue {
  private readonly client: SQSClient;
  private readonly queueUrl: string;

  constructor(client: SQSClient, queueUrl: string) {
    this.client = client;
    this.queueUrl = queueUrl;
  }

  async enqueue(message: { orgId: string; event: string; payload: unknown }): Promise<void> {
    await this.client.send(
      new SendMessageCommand({
        QueueUrl: this.queueUrl,
        MessageBody: JSON.stringify({ ...message, attempt: 0, occurredAt: new Date().toISOString() }),
      }),
    );
  }

  /** A received message seen again after `delaySeconds` (the consumer's backoff: its visibility timeout). */
  async retryLater(receiptHandle: string, delaySeconds: number): Promise<void> {
    await this.client.send(
      new ChangeMessageVisibilityCommand({
        QueueUrl: this.queueUrl,
        ReceiptHandle: receiptHandle,
        VisibilityTimeout: delaySeconds,
      }),
    );
  }
}
