import type { SQSEvent, SQSRecord } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { WebhookMessageSchema } from '../../../functions/core/webhooks/model.ts';
import { sqsConsumer } from '../../../functions/shared/sqs-batch.ts';

const recordOf = (messageId: string, body: string): SQSRecord => ({
  messageId,
  receiptHandle: `receipt-${messageId}`,
  body,
  attributes: {
    ApproximateReceiveCount: '1',
    SentTimestamp: '1764288000000',
    SenderId: 'test',
    ApproximateFirstReceiveTimestamp: '1764288000000',
  },
  messageAttributes: {},
  md5OfBody: '',
  eventSource: 'aws:sqs',
  eventSourceARN: 'arn:aws:sqs:us-east-1:000000000000:webhooks',
  awsRegion: 'us-east-1',
});
const message = {
  orgId: 'org_1',
  event: 'job.completed',
  payload: { eventId: 'evt_1', jobId: 'job_1' },
  occurredAt: '2026-11-28T00:00:00.000Z',
};

describe("an SQS consumer on Powertools' BatchProcessor and a body schema, with partial batch responses", () => {
  it('hands each valid record on parsed, and reports the unreadable, the invalid and the failed alone', async () => {
    // Prepare
    const handled: string[] = [];
    const consume = sqsConsumer(WebhookMessageSchema, async (record) => {
      if (record.body.payload.eventId === 'evt_fails') throw new Error('endpoint answered 500');
      handled.push(`${record.messageId}:${record.body.payload.jobId}`);
    });
    const event = {
      Records: [
        recordOf('m1', JSON.stringify(message)),
        recordOf('m2', '{not json'),
        recordOf('m3', JSON.stringify({ ...message, event: 'job.started' })),
        recordOf('m4', JSON.stringify({ ...message, payload: { eventId: 'evt_fails' } })),
      ],
    } as SQSEvent;
    // Act
    const response = await consume(event);
    // Assess
    expect(handled).toEqual(['m1:job_1']);
    expect(response.batchItemFailures).toEqual([
      { itemIdentifier: 'm2' },
      { itemIdentifier: 'm3' },
      { itemIdentifier: 'm4' },
    ]);
  });

  it('reports a batch whose every record failed, without throwing (each returns to the queue alone)', async () => {
    const consume = sqsConsumer(WebhookMessageSchema, async () => {
      throw new Error('endpoint answered 500');
    });

    const response = await consume({ Records: [recordOf('m1', JSON.stringify(message))] } as SQSEvent);

    expect(response.batchItemFailures).toEqual([{ itemIdentifier: 'm1' }]);
  });
});
