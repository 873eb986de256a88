import type { ExtractionErrorCode, PageIssue } from './model.ts';

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

/** The page's issue when an OCR read (`what`) failed: the page keeps what it had without it. */
export const ocrSkipped = (pageNumber: number, error: unknown, what = 'OCR'): PageIssue => ({
  pageNumber,
  code: isExtractionError(error) ? error.code : 'ocr_failed',
  message: `${what} skipped: ${(error as Error).message}`,
});
