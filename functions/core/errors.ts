/**
 * Domain errors. Plain classes with a stable machine-readable `code`; `functions/shared/http/errors.ts`
 * maps each class to an HTTP status. Domain code never deals in status codes.
 */
export abstract class DomainError extends Error {
  abstract readonly code: string;
  /** Extra members placed next to `code` and `message` in the error envelope. */
  readonly details: Record<string, unknown> | undefined;

  constructor(message: string, details?: Record<string, unknown>) {
    super(message);
    this.name = new.target.name;
    this.details = details;
  }
}

export class InvalidRequestError extends DomainError {
  constructor(
    message: string,
    readonly code: string = 'invalid_request',
    details?: Record<string, unknown>,
  ) {
    super(message, details);
  }
}

export class NotFoundError extends DomainError {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export class ProjectNotFoundError extends NotFoundError {
  constructor() {
    super('project_not_found', 'Project not found.');
  }
}

export class ConflictError extends DomainError {
  constructor(
    readonly code: string,
    message: string,
    details?: Record<string, unknown>,
  ) {
    super(message, details);
  }
}

export class InsufficientCreditsError extends DomainError {
  readonly code = 'insufficient_credits';
  constructor(
    readonly requiredCredits: number,
    readonly availableCredits: number,
  ) {
    super(`This operation needs ${requiredCredits} credits; the organization has ${availableCredits}.`, {
      requiredCredits,
      availableCredits,
    });
  }
}

export class UnauthorizedError extends DomainError {
  readonly code = 'unauthorized';
}

export class ScopeRequiredError extends DomainError {
  readonly code = 'scope_required';
  constructor(readonly scope: string) {
    super(`This operation requires the scope "${scope}".`, { scope });
  }
}

export class RateLimitedError extends DomainError {
  readonly code = 'rate_limited';
  constructor(readonly retryAfterSeconds: number) {
    super(`Too many requests for this key. Retry after ${retryAfterSeconds} seconds.`, { retryAfterSeconds });
  }
}

/** A dependency (state machine, storage) refused or failed; the request can be retried. */
export class ServiceUnavailableError extends DomainError {
  readonly code = 'service_unavailable';
}
