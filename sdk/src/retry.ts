/**
 * Retries with exponential backoff and jitter: a 429 (the request was refused, never run) for every
 * method, honouring `Retry-After`; a 5xx or a network failure only for calls that are safe to repeat
 * (GET/HEAD/PUT/DELETE/OPTIONS, or any call carrying an `Idempotency-Key`).
 */
export interface RetryOptions {
  /** Retries after the first attempt (default 4). */
  maxRetries: number;
  /** First backoff (default 500 ms), doubled at each retry. */
  baseDelayMs: number;
  /** Longest single wait, `Retry-After` included (default 30 s). */
  maxDelayMs: number;
}

export const DEFAULT_RETRY: RetryOptions = { maxRetries: 4, baseDelayMs: 500, maxDelayMs: 30_000 };

const IDEMPOTENT_METHODS = new Set(['GET', 'HEAD', 'PUT', 'DELETE', 'OPTIONS']);

export function isIdempotent(request: Request): boolean {
  return IDEMPOTENT_METHODS.has(request.method.toUpperCase()) || request.headers.has('idempotency-key');
}

/** `Retry-After` in milliseconds (seconds or an HTTP date), or null when absent or unreadable. */
export function retryAfterMs(header: string | null, now = Date.now()): number | null {
  if (!header) return null;
  const trimmed = header.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}

export function backoffMs(attempt: number, options: RetryOptions): number {
  const exponential = options.baseDelayMs * 2 ** attempt;
  return Math.min(options.maxDelayMs, exponential / 2 + Math.random() * (exponential / 2));
}

export const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });

/** A fetch that retries as described above; the response of the last attempt is returned as is. */
export function retryingFetch(inner: typeof fetch, options: RetryOptions): typeof fetch {
  return async (input, init) => {
    const original = new Request(input, init);
    for (let attempt = 0; ; attempt += 1) {
      const request = original.clone();
      const canRetry = attempt < options.maxRetries;
      let response: Response;
      try {
        response = await inner(request);
      } catch (error) {
        if (!canRetry || !isIdempotent(original) || original.signal.aborted) throw error;
        await sleep(backoffMs(attempt, options), original.signal);
        continue;
      }
      const retryable = response.status === 429 || (response.status >= 500 && isIdempotent(original));
      if (!canRetry || !retryable) return response;
      const wait = retryAfterMs(response.headers.get('retry-after')) ?? backoffMs(attempt, options);
      await response.body?.cancel();
      await sleep(Math.min(wait, options.maxDelayMs), original.signal);
    }
  };
}
