import { DeleteMessageCommand, ReceiveMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { invokeHandler } from './lambda.ts';

/**
 * What a Lambda SQS event source mapping does, locally: long-poll the queue, hand batches to the
 * consumer handler, delete what succeeded and leave reported failures for redelivery.
 */
export class LocalSqsPoller {
  private running = true;
  private readonly done: Promise<void>;

  private readonly client: SQSClient;
  private readonly queueUrl: string;
  private readonly queueArn: string;
  private readonly handler: string;
  private readonly batchSize: number;

  constructor(client: SQSClient, queueUrl: string, queueArn: string, handler: string, batchSize: number) {
    this.client = client;
    this.queueUrl = queueUrl;
    this.queueArn = queueArn;
    this.handler = handler;
    this.batchSize = batchSize;
    this.done = this.loop();
  }

  private async loop(): Promise<void> {
    while (this.running) {
      try {
        const received = await this.client.send(
          new ReceiveMessageCommand({
            QueueUrl: this.queueUrl,
            MaxNumberOfMessages: this.batchSize,
            WaitTimeSeconds: 1,
            MessageSystemAttributeNames: ['ApproximateReceiveCount', 'SentTimestamp'],
          }),
        );
        const messages = received.Messages ?? [];
        if (messages.length === 0) continue;
        const event: SQSEvent = {
          Records: messages.map((message) => ({
            messageId: message.MessageId ?? '',
            receiptHandle: message.ReceiptHandle ?? '',
            body: message.Body ?? '',
            attributes: {
              ApproximateReceiveCount: message.Attributes?.ApproximateReceiveCount ?? '1',
              SentTimestamp: message.Attributes?.SentTimestamp ?? String(Date.now()),
              SenderId: 'local',
              ApproximateFirstReceiveTimestamp: String(Date.now()),
            },
            messageAttributes: {},
            md5OfBody: message.MD5OfBody ?? '',
            eventSource: 'aws:sqs',
            eventSourceARN: this.queueArn,
            awsRegion: 'us-east-1',
          })),
        };
        let failed = new Set<string>();
        try {
          const response = (await invokeHandler(this.handler, event, 120_000)) as
            | SQSBatchResponse
            | undefined;
          failed = new Set((response?.batchItemFailures ?? []).map((failure) => failure.itemIdentifier));
        } catch (error) {
          console.error(`${this.handler} failed:`, error);
          failed = new Set(messages.map((message) => message.MessageId ?? ''));
        }
        for (const message of messages) {
          if (failed.has(message.MessageId ?? '')) continue;
          await this.client.send(
            new DeleteMessageCommand({ QueueUrl: this.queueUrl, ReceiptHandle: message.ReceiptHandle }),
          );
        }
      } catch (error) {
        if (this.running) console.error('local SQS poller:', (error as Error).message);
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
    }
  }

  async stop(): Promise<void> {
    this.running = false;
    await this.done;
  }
}

export function localSqsClient(): SQSClient {
  return new SQSClient({ useQueueUrlAsEndpoint: false });
}
