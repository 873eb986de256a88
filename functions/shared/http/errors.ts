import {
  ConflictError,
  DomainError,
  InsufficientCreditsError,
  InvalidRequestError,
  NotFoundError,
  RateLimitedError,
  ScopeRequiredError,
  ServiceUnavailableError,
  UnauthorizedError,
} from '../../core/errors.ts';
import { StreamInvalidResponseError, StreamUnavailableError } from '../../core/reviews/stream.ts';

/** Errors that only exist at the HTTP edge. */
export class PayloadTooLargeError extends DomainError {
  readonly code = 'payload_too_large';
}

export class UnsupportedMediaTypeError extends DomainError {
  readonly code = 'unsupported_media_type';
}

export class MethodNotAllowedError extends DomainError {
  readonly code = 'method_not_allowed';
  readonly allowed: string[];

  constructor(allowed: string[]) {
    super(`This path accepts ${allowed.join(', ')}.`, { allowedMethods: allowed });
    this.allowed = allowed;
  }
}

/** A request that did not come through the distribution (the execute-api endpoint, which skips the web ACL). */
export class OriginRequiredError extends DomainError {
  readonly code = 'origin_required';
  constructor() {
    super(
      "Send requests to the API's base URL (the CloudFront distribution), not to the execute-api endpoint.",
    );
  }
}

/** A stream request the stream cannot serve: its query or its transport (400). */
export class StreamError extends InvalidRequestError {}

/** A stream request whose `Accept` allows neither SSE nor NDJSON (406). */
export class StreamMediaTypeError extends InvalidRequestError {}

export class RouteNotFoundError extends NotFoundError {
  constructor() {
    super('route_not_found', 'No such endpoint. Paths start with /api/open/v1.');
  }
}

/** THE mapping from error class to HTTP status. Order matters: subclasses before their parents. */
const STATUS_BY_CLASS: [abstract new (...args: never[]) => DomainError, number][] = [
  [StreamMediaTypeError, 406],
  [StreamInvalidResponseError, 502],
  [StreamUnavailableError, 503],
  [InvalidRequestError, 400],
  [UnauthorizedError, 401],
  [InsufficientCreditsError, 402],
  [ScopeRequiredError, 403],
  [OriginRequiredError, 403],
  [NotFoundError, 404],
  [MethodNotAllowedError, 405],
  [ConflictError, 409],
  [PayloadTooLargeError, 413],
  [UnsupportedMediaTypeError, 415],
  [RateLimitedError, 429],
  [ServiceUnavailableError, 503],
];

export function statusOf(error: DomainError): number {
  for (const [errorClass, status] of STATUS_BY_CLASS) {
    if (error instanceof errorClass) return status;
  }
  return 500;
}
