import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PrivateWebhookTargetError, webhookSender } from '../../../functions/adapters/http/webhook-sender.ts';
import { isPublicAddress } from '../../../functions/core/webhooks/addresses.ts';
import { assertDeliverableUrl } from '../../../functions/core/webhooks/delivery.ts';

/** Every spelling the probe found passing the text comparison, and the ranges it named. */
const NON_PUBLIC = [
  '::ffff:127.0.0.1',
  '::ffff:7f00:1',
  '0:0:0:0:0:ffff:7f00:1',
  '::ffff:a9fe:a9fe', // 169.254.169.254, the metadata address
  '::',
  '::1',
  '::127.0.0.1', // IPv4-compatible
  '64:ff9b::7f00:1', // NAT64 of 127.0.0.1
  '64:ff9b::808:808', // NAT64 of a public address: still a translator, refused
  '2002:7f00:1::', // 6to4
  '198.18.0.1',
  '198.19.255.254',
  '127.0.0.1',
  '10.1.2.3',
  '169.254.169.254',
  '100.64.0.1',
  '0.0.0.0',
  '224.0.0.1',
  '255.255.255.255',
  'fc00::1',
  'FE80::1',
  'ff02::1',
];
const PUBLIC = ['8.8.8.8', '198.20.0.1', '::ffff:8.8.8.8', '2606:4700:4700::1111'];

describe('webhook targets', () => {
  it('refuses every spelling of a non-public address and accepts public ones', () => {
    // Act
    const judged = [...NON_PUBLIC, ...PUBLIC].map((address) => [address, isPublicAddress(address)]);
    // Assess
    expect(judged).toEqual([
      ...NON_PUBLIC.map((address) => [address, false]),
      ...PUBLIC.map((address) => [address, true]),
    ]);
  });

  it('refuses a registration whose URL names a non-public address literal, in any spelling', () => {
    // Prepare
    const literal = (address: string) => (address.includes(':') ? `[${address}]` : address);
    // Act
    const refused = NON_PUBLIC.map((address) => {
      try {
        assertDeliverableUrl(`https://${literal(address)}/hook`, false);
        return 'accepted';
      } catch (error) {
        return (error as { code?: string }).code;
      }
    });
    // Assess
    expect(refused).toEqual(NON_PUBLIC.map(() => 'invalid_request'));
    expect(() => assertDeliverableUrl('https://[2606:4700:4700::1111]/hook', false)).not.toThrow();
  });

  describe('delivery', () => {
    let server: Server;
    let port: number;
    const received: string[] = [];

    beforeAll(async () => {
      server = createServer((request, response) => {
        received.push(`${request.method} ${request.headers.host} ${request.url}`);
        request.resume();
        response.writeHead(204).end();
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      port = (server.address() as AddressInfo).port;
    });
    afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

    it('connects to the address it checked, never to a second resolution (DNS rebinding)', async () => {
      // Prepare: the name resolves to the listener first, then elsewhere; real DNS does not know it
      const answers = [[{ address: '127.0.0.1', family: 4 }], [{ address: '10.255.255.1', family: 4 }]];
      const lookups: string[] = [];
      const sender = webhookSender(async (host) => {
        lookups.push(host);
        return answers.shift() ?? [];
      });
      received.length = 0;
      // Act (private targets allowed, as locally: the listener is on loopback)
      const status = await sender.post(`http://hooks.example.test:${port}/in`, {}, '{}', true);
      // Assess
      expect(status).toBe(204);
      expect(lookups).toEqual(['hooks.example.test']);
      expect(received).toEqual([`POST hooks.example.test:${port} /in`]);
    });

    it('refuses a name that resolves to any non-public address, and sends nothing', async () => {
      // Prepare
      received.length = 0;
      const resolvingTo = (...addresses: string[]) =>
        webhookSender(async () =>
          addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })),
        );
      // Act
      const outcomes = await Promise.all(
        [
          resolvingTo('::ffff:127.0.0.1'),
          resolvingTo('64:ff9b::7f00:1'),
          resolvingTo('8.8.8.8', '198.18.0.1'),
        ].map((sender) =>
          sender.post(`http://hooks.example.test:${port}/in`, {}, '{}', false).then(
            () => 'sent',
            (error: Error) => error.name,
          ),
        ),
      );
      // Assess
      expect(outcomes).toEqual([
        PrivateWebhookTargetError.name,
        PrivateWebhookTargetError.name,
        PrivateWebhookTargetError.name,
      ]);
      expect(received).toEqual([]);
    });
  });
});
