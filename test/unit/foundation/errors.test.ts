import { describe, expect, it } from 'vitest';
import {
  ConflictError,
  InvalidRequestError,
  NotFoundError,
  RateLimitedError,
  ServiceUnavailableError,
} from '../../../functions/core/errors.ts';
import { errorResponse } from '../../../functions/shared/http/api-handler.ts';
import { MethodNotAllowedError } from '../../../functions/shared/http/errors.ts';

const bodyOf = (error: unknown) => JSON.parse(errorResponse(error, 'req_1').body ?? '{}');

describe('error envelope', () => {
  it('takes code, message and details in one order for every error that carries a code', () => {
    // Prepare
    const errors = [
      new InvalidRequestError('invalid_cursor', 'Bad cursor.', { field: 'cursor' }),
      new NotFoundError('job_not_found', 'No job.', { field: 'jobId' }),
      new ConflictError('job_expired', 'Expired.', { field: 'job' }),
    ];

    // Act
    const bodies = errors.map(bodyOf);

    // Assess
    expect(bodies.map((body) => [body.error.code, body.error.message, body.error.field])).toEqual([
      ['invalid_cursor', 'Bad cursor.', 'cursor'],
      ['job_not_found', 'No job.', 'jobId'],
      ['job_expired', 'Expired.', 'job'],
    ]);
  });

  it("never sends a dependency's error, only logs it", () => {
    // Prepare
    const cause = Object.assign(new Error('AccessDeniedException: arn:aws:states:secret-machine'), {
      name: 'AccessDeniedException',
    });

    // Act
    const response = errorResponse(new ServiceUnavailableError('Retry later.', cause), 'req_2');

    // Assess
    expect(response.statusCode).toBe(503);
    expect(response.body).not.toContain('AccessDenied');
    expect(response.body).not.toContain('arn:');
    expect(JSON.parse(response.body ?? '{}')).toEqual({
      error: { code: 'service_unavailable', message: 'Retry later.', requestId: 'req_2' },
    });
  });

  it('sends Allow with a 405 and Retry-After with a 429, from the error classes', () => {
    // Act
    const methodNotAllowed = errorResponse(new MethodNotAllowedError(['GET', 'POST']), 'req_3');
    const rateLimited = errorResponse(new RateLimitedError(7), 'req_4');

    // Assess
    expect(methodNotAllowed.statusCode).toBe(405);
    expect(methodNotAllowed.headers?.allow).toBe('GET, POST');
    expect(rateLimited.statusCode).toBe(429);
    expect(rateLimited.headers?.['retry-after']).toBe('7');
  });

  it('turns an unknown error into a generic 500 that says nothing of it', () => {
    // Act
    const response = errorResponse(
      new TypeError('Cannot read properties of undefined (reading pk)'),
      'req_5',
    );

    // Assess
    expect(response.statusCode).toBe(500);
    expect(response.body).not.toContain('pk');
    expect(bodyOf(new TypeError('x')).error.code).toBe('internal_error');
  });

  it("answers 503 service_unavailable, not 500, when a handler runs out of the function's time", () => {
    // Prepare: the error middy raises on its early timeout.
    const timeout = Object.assign(new Error('[AbortError]: The operation was aborted.'), {
      name: 'TimeoutError',
      cause: { package: '@middy/core' },
    });
    // Act
    const response = errorResponse(timeout, 'req_6');
    // Assess
    expect(response.statusCode).toBe(503);
    expect(JSON.parse(String(response.body)).error).toMatchObject({
      code: 'service_unavailable',
      message: expect.stringContaining('did not finish in time'),
      requestId: 'req_6',
    });
  });
});
