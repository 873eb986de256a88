import { lookup } from 'node:dns/promises';
import { request as httpRequest, type RequestOptions } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { isPublicAddress } from '../../core/webhooks/addresses.ts';
import type { WebhookSender } from '../../core/webhooks/webhooks.ts';

export type Resolve = (host: string) => Promise<{ address: string; family: number }[]>;

const resolveAll: Resolve = (host) => lookup(host, { all: true });

export class PrivateWebhookTargetError extends Error {
  override name = 'PrivateWebhookTargetError';
}

/**
 * POSTs with a 10 s timeout. The host is resolved once and every address checked (parsed, so no
 * spelling of a private address passes: `core/webhooks/addresses.ts`); the connection then goes to
 * the address that was checked, never to a second resolution (DNS rebinding). TLS still verifies the
 * certificate against the URL's host name.
 */
export function webhookSender(resolve: Resolve = resolveAll): WebhookSender {
  return {
    async post(url, headers, body, allowPrivate) {
      const target = new URL(url);
      const host = target.hostname.replace(/^\[|\]$/g, '');
      const family = isIP(host);
      const addresses = family ? [{ address: host, family }] : await resolve(host);
      const checked = allowPrivate ? addresses : addresses.filter(({ address }) => isPublicAddress(address));
      const [chosen] = checked;
      if (!chosen || checked.length !== addresses.length)
        throw new PrivateWebhookTargetError('webhook host resolves to a private address');
      const pinned: LookupFunction = (_hostname, options, callback) => {
        if (options.all) (callback as (error: null, all: typeof addresses) => void)(null, [chosen]);
        else callback(null, chosen.address, chosen.family);
      };
      const options: RequestOptions = {
        method: 'POST',
        headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
        lookup: pinned,
        timeout: 10_000,
        ...(family ? {} : { servername: host }),
      };
      return new Promise<number>((resolveStatus, reject) => {
        const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
        const outgoing = send(target, options, (response) => {
          // Redirects are not followed: the status is the answer.
          response.resume();
          response.on('end', () => resolveStatus(response.statusCode ?? 0));
          response.on('error', reject);
        });
        outgoing.on('timeout', () => outgoing.destroy(new Error('webhook delivery timed out after 10 s')));
        outgoing.on('error', reject);
        outgoing.end(body);
      });
    },
  };
}

export const fetchWebhookSender: WebhookSender = webhookSender();
