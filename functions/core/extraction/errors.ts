import type { ExtractionErrorCode } from './model.ts';

/** The one error the engine throws for a file it cannot process; `code` says why. */
export class ExtractionError extends Error {
  readonly code: ExtractionErrorCode;
  readonly pageNumber: number | null;

  constructor(
    code: ExtractionErrorCode,
    message: string,
    options?: { cause?: unknown; pageNumber?: number },
  ) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'ExtractionError';
    this.code = code;
    this.pageNumber = options?.pageNumber ?? null;
  }
}

export const isExtractionError = (error: unknown): error is ExtractionError =>
  error instanceof ExtractionError;
