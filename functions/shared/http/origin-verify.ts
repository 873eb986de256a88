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
