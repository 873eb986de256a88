import { timingSafeEqual } from 'node:crypto';

/**
 * The header CloudFront adds to every request it sends to the HTTP API (lib/edge.ts), with the value
 * of the `originVerify` secret. A request straight to the execute-api endpoint (which skips the
 * distribution and its web ACL) lacks it and is refused.
 */
export const ORIGIN_VERIFY_HEADER = 'x-origin-verify';

/** Whether a request carries the origin secret (compared in constant time). */
export function fromOrigin(
  headers: Record<string, string | undefined> | undefined,
  expected: string,
): boolean {
  const given = Buffer.from(headers?.[ORIGIN_VERIFY_HEADER] ?? '');
  const wanted = Buffer.from(expected);
  return given.length === wanted.length && timingSafeEqual(given, wanted);
}

/**
 * The client's address from `CloudFront-Viewer-Address` (`192.0.2.1:46532`, `2001:db8::1:46532`),
 * without its port; null when absent or malformed. Trusted only on a request that carried the origin
 * secret (CloudFront sets this header itself; API Gateway's own `sourceIp` is CloudFront's edge).
 */
export function viewerAddress(headers: Record<string, string | undefined> | undefined): string | null {
  const value = headers?.['cloudfront-viewer-address']?.trim();
  const match = value ? /^(.+):(\d{1,5})$/.exec(value) : null;
  const address = match?.[1]?.replace(/^\[(.*)\]$/, '$1');
  if (!address || address.length > 45 || !/^[0-9A-Fa-f.:]+$/.test(address)) return null;
  return address;
}
