import type { ErrorInfo } from '../errors.ts';

/**
 * Every error the pipeline records on a job or a file, with the message a client reads. Codes are
 * public (they appear on jobs, files and in webhooks); nothing else is written inline.
 */
export const PIPELINE_ERRORS = {
  checksumMismatch: (): ErrorInfo => ({
    code: 'checksum_mismatch',
    message: 'The stored bytes do not match the declared SHA-256; register and upload the file again.',
  }),
  sizeMismatch: (): ErrorInfo => ({
    code: 'checksum_mismatch',
    message: 'The stored bytes are not the declared size; register and upload the file again.',
  }),
  notInspected: (): ErrorInfo => ({
    code: 'extraction_failed',
    message: 'The file could not be inspected; register and upload it again in a new job.',
  }),
  notPdf: (): ErrorInfo => ({
    code: 'unsupported_file_type',
    message: 'Only PDF files are processed; this file is not a PDF.',
  }),
  encrypted: (): ErrorInfo => ({
    code: 'pdf_encrypted',
    message: 'The PDF is encrypted; upload a copy without a password.',
  }),
  malformed: (detail: string): ErrorInfo => ({
    code: 'pdf_malformed',
    message: `The PDF could not be read: ${detail}`,
  }),
  empty: (): ErrorInfo => ({ code: 'pdf_empty', message: 'The PDF has no pages.' }),
  tooManyPages: (pages: number, max: number): ErrorInfo => ({
    code: 'pdf_too_many_pages',
    message: `The PDF has ${pages} pages; at most ${max} are processed per file. Split it.`,
  }),
  insufficientCredits: (pages: number, credits: number, available: number): ErrorInfo => ({
    code: 'insufficient_credits',
    message: `Processing ${pages} pages needs ${credits} credits; the organization has ${available}.`,
  }),
  /** A batch failed inside the engine; `code` is the engine's own when it gave one. */
  batchFailed: (code: string | undefined, detail: string): ErrorInfo => ({
    code: code ?? 'extraction_failed',
    message: detail.slice(0, 300),
  }),
  /**
   * A batch whose task gave up (a throttle or a service failure outlasting every retry) stored nothing:
   * every page of the file without a result, by number.
   */
  batchMissing: (absent: PageSpan[]): ErrorInfo => ({
    code: 'batch_missing',
    message: `${pageSpans(absent)} could not be processed; process the file again in a new job.`,
  }),
  /** A batch failed inside the engine part way: its error, and every page left without a result. */
  pagesLost: (error: ErrorInfo, absent: PageSpan[]): ErrorInfo => ({
    code: error.code,
    message: `${pageSpans(absent)} could not be processed: ${error.message}`.slice(0, 400),
  }),
  noPageProcessed: (): ErrorInfo => ({
    code: 'extraction_failed',
    message: 'No page of the file could be processed.',
  }),
  fileNotProcessed: (): ErrorInfo => ({
    code: 'extraction_failed',
    message: 'The file could not be processed.',
  }),
  fileBranchFailed: (): ErrorInfo => ({
    code: 'extraction_failed',
    message: 'The file could not be processed; other files of the job were.',
  }),
  noFileProcessed: (): ErrorInfo => ({
    code: 'no_file_processed',
    message: "No file of the job could be processed; see each file's error.",
  }),
  jobExpired: (expiresAt: string): ErrorInfo => ({
    code: 'job_expired',
    message: `The job's uploads were not completed before ${expiresAt}; create a new job. No credits were charged.`,
  }),
  processingFailed: (): ErrorInfo => ({
    code: 'processing_failed',
    message: 'The job could not be processed. No credits were charged.',
  }),
};

export interface PageSpan {
  from: number;
  to: number;
}

/** `Page 3`, `Pages 5-8`, `Pages 1-4, 9-12` (at most 10 spans named, then how many more). */
function pageSpans(spans: PageSpan[]): string {
  const pages = spans.reduce((sum, span) => sum + span.to - span.from + 1, 0);
  const named = spans
    .slice(0, 10)
    .map((span) => (span.from === span.to ? `${span.from}` : `${span.from}-${span.to}`));
  const more = spans.length > 10 ? ` and ${spans.length - 10} more spans` : '';
  return `${pages === 1 ? 'Page' : 'Pages'} ${named.join(', ')}${more}`;
}
