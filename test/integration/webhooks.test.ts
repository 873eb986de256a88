import { createHmac } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SqsWebhookQueue } from '../../functions/adapters/sqs/webhook-queue.ts';
import { localSqsClient } from '../../local/sqs-poller.ts';
import { api, createOrg, type TestOrg } from './helpers.ts';

interface Received {
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** A webhook receiver on localhost that fails its first `failFirst` deliveries. */
function receiver(failFirst: number) {
  const received: Received[] = [];
  let calls = 0;
  const server: Server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => {
      body += chunk;
    });
    request.on('end', () => {
      calls++;
      received.push({ headers: request.headers, body });
      response.writeHead(calls <= failFirst ? 500 : 204);
      response.end();
    });
  });
  return {
    received,
    server,
    listen: () =>
      new Promise<string>((resolve) =>
        server.listen(0, '127.0.0.1', () => {
          const address = server.address();
          resolve(`http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/hooks`);
        }),
      ),
  };
}

async function until(check: () => boolean, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('job webhooks', () => {
  let org: TestOrg;
  const hook = receiver(1);
  let url: string;

  beforeAll(async () => {
    org = await createOrg();
    url = await hook.listen();
  });
  afterAll(() => {
    hook.server.close();
  });

  it('configures a webhook with a secret returned once, and refuses bad URLs', async () => {
    const bad = await api('/api/open-api/webhook', {
      method: 'PUT',
      cookie: org.sessionToken,
      body: { url: 'ftp://example.com' },
    });
    expect(bad.status).toBe(400);
    const missing = await api('/api/open-api/webhook', { cookie: org.sessionToken });
    expect(missing.status).toBe(404);

    const set = await api('/api/open-api/webhook', {
      method: 'PUT',
      cookie: org.sessionToken,
      body: { url },
    });
    const read = await api('/api/open-api/webhook', { cookie: org.sessionToken });

    expect(set.status).toBe(200);
    expect(set.body.secret).toMatch(/^whsec_/);
    expect(read.body.webhook).toMatchObject({ url, events: ['job.completed', 'job.failed'] });
    expect(JSON.stringify(read.body)).not.toContain(set.body.secret);
    expect(JSON.stringify(read.body)).not.toContain('secretCiphertext');
  });

  it('delivers a signed event, retrying with backoff after a failure', async () => {
    const set = await api('/api/open-api/webhook', {
      method: 'PUT',
      cookie: org.sessionToken,
      body: { url },
    });
    const secret: string = set.body.secret;
    const queue = new SqsWebhookQueue(localSqsClient(), process.env.WEBHOOK_QUEUE_URL as string);

    await queue.enqueue({
      orgId: org.orgId,
      event: 'job.completed',
      payload: { eventId: 'job_test.job.completed', jobId: 'job_test', status: 'completed' },
    });
    await until(() => hook.received.length >= 2);

    const [first, second] = hook.received as [Received, Received];
    expect(second.body).toBe(first.body);
    const timestamp = Number(second.headers['webhook-timestamp']);
    const expected = createHmac('sha256', Buffer.from(secret.replace(/^whsec_/, ''), 'base64url'))
      .update(`${second.headers['webhook-id']}.${timestamp}.${second.body}`)
      .digest('base64');
    expect(second.headers['webhook-signature']).toBe(`v1,${expected}`);
    expect(second.headers['webhook-id']).toBe('job_test.job.completed');
    expect(Math.abs(timestamp - Date.now() / 1000)).toBeLessThan(60);
    expect(JSON.parse(second.body)).toMatchObject({
      id: 'job_test.job.completed',
      type: 'job.completed',
      data: { jobId: 'job_test' },
    });
  });

  it('removes the webhook', async () => {
    expect((await api('/api/open-api/webhook', { method: 'DELETE', cookie: org.sessionToken })).status).toBe(
      200,
    );
    expect((await api('/api/open-api/webhook', { cookie: org.sessionToken })).status).toBe(404);
  });
});
