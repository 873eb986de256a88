import { startFauxqs } from 'fauxqs';

export interface LocalSqs {
  endpoint: string;
  queueUrls: Record<string, string>;
  stop(): Promise<void>;
}

/** fauxqs in-process (SQS only: its S3 mode caps bodies at 11 MiB). Queues with a DLQ each, as on AWS. */
export async function startSqs(options: { queues: string[] }): Promise<LocalSqs> {
  const server = await startFauxqs({ port: 0, logger: false });
  const queueUrls: Record<string, string> = {};
  for (const name of options.queues) {
    const dlq = server.createQueue(`${name}-dlq`);
    const queue = server.createQueue(name, {
      attributes: {
        VisibilityTimeout: '60',
        RedrivePolicy: JSON.stringify({ deadLetterTargetArn: dlq.queueArn, maxReceiveCount: '5' }),
      },
    });
    queueUrls[name] = queue.queueUrl;
  }
  return { endpoint: server.address, queueUrls, stop: () => server.stop() };
}
