import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import type { WebhookSender } from '../../core/webhooks/webhooks.ts';

const PRIVATE = /^(10\.|127\.|169\.254\.|192\.168\.|172\.(1[6-9]|2\d|3[01])\.|0\.|::1$|f[cd]|fe80)/i;

/** POSTs with a 10 s timeout; refuses hosts that resolve to private addresses (DNS rebinding) unless allowed. */
export const fetchWebhookSender: WebhookSender = {
  async post(url, headers, body, allowPrivate) {
    const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
    if (!allowPrivate) {
      const addresses = isIP(host) ? [{ address: host }] : await lookup(host, { all: true });
      if (addresses.some(({ address }) => PRIVATE.test(address)))
        throw new Error('webhook host resolves to a private address');
    }
    const response = await fetch(url, {
      method: 'POST',
      headers,
      body,
      redirect: 'manual',
      signal: AbortSignal.timeout(10_000),
    });
    await response.body?.cancel();
    return response.status;
  },
};
