import { z } from 'zod';

/** The `{ code, message }` pair stored on failed projects, jobs and files and shown to clients. */
export const ErrorInfoSchema = z
  .object({ code: z.string(), message: z.string() })
  .describe('Machine-readable code and human-readable message.');
export type ErrorInfo = z.infer<typeof ErrorInfoSchema>;

/**
 * Domain errors. Plain classes with a stable machine-readable `code`; `functions/shared/http/errors.ts`
 * maps each class to an HTTP status. Domain code never deals in status codes.
 *
 * One shape: the classes that take a code take `(code, message, details?)`; the others take what
 * their code needs. `details` are public (sent next to `code` and `message` in the error envelope);
 * what is internal goes in `cause`, which is logged and never sent.
 */
export abstract class DomainError extends Error {
  abstract readonly code: string;
  /** Extra public members placed next to `code` and `message` in the error envelope. */
  readonly details: Record<string, unknown> | undefined;

  constructor(message: string, details?: Record<string, unknown>, cause?: unknown) {
    super(message, cause === undefined ? undefined : { cause });
    this.name = new.target.name;
    this.details = details;
  }

  /** Seconds after which a retry can succeed, when the error says (`details.retryAfterSeconds`): the `Retry-After` header. */
  get retryAfterSeconds(): number | undefined {
    const value = this.details?.retryAfterSeconds;
    return typeof value === 'number' ? value : undefined;
  }
}

export class InvalidRequestError extends DomainError {
  readonly code: string;

  constructor(code: string, message: string, details?: Record<string, unknown>) {
    super(message, details);
    this.code = code;
  }
}

export class NotFoundError extends DomainError {
  readonly code: string;

  constructor(code: string, message: string, details?: Record<string, unknown>) {
    super(message, details);
    this.code = code;
  }
}

export class ProjectNotFoundError extends NotFoundError {
  constructor() {
    super('project_not_found', 'Project not found.');
  }
}

export class ConflictError extends DomainError {
  readonly code: string;

  constructor(code: string, message: string, details?: Record<string, unknown>) {
    super(message, details);
    this.code = code;
  }
}

export class InsufficientCreditsError extends DomainError {
  readonly code = 'insufficient_credits';
  readonly requiredCredits: number;
  readonly availableCredits: number;

  constructor(requiredCredits: number, availableCredits: number) {
    super(`This operation needs ${requiredCredits} credits; the organization has ${availableCredits}.`, {
      requiredCredits,
      availableCredits,
    });
    this.requiredCredits = requiredCredits;
    this.availableCredits = availableCredits;
  }
}

export class UnauthorizedError extends DomainError {
  readonly code = 'unauthorized';
}

export class ScopeRequiredError extends DomainError {
  readonly code = 'scope_required';
  readonly scope: string;

  constructor(scope: string) {
    super(`This operation requires the scope "${scope}".`, { scope });
    this.scope = scope;
  }
}

export class RateLimitedError extends DomainError {
  readonly code = 'rate_limited';

  constructor(retryAfterSeconds: number) {
    super(`Too many requests for this key. Retry after ${retryAfterSeconds} seconds.`, { retryAfterSeconds });
  }
}

/** A dependency (state machine, storage) refused or failed; the request can be retried. */
export class ServiceUnavailableError extends DomainError {
  readonly code = 'service_unavailable';

  /** `cause` (the dependency's own error) is logged, never sent. */
  constructor(message: string, cause?: unknown) {
    super(message, undefined, cause);
  }
}
