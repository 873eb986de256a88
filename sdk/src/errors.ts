/** An error answered by the API, in its envelope `{error: {code, message, requestId, ...details}}`. */
export class PsaApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly requestId: string | null;
  readonly details: Record<string, unknown>;

  constructor(status: number, code: string, message: string, requestId: string | null, details = {}) {
    super(message);
    this.name = 'PsaApiError';
    this.status = status;
    this.code = code;
    this.requestId = requestId;
    this.details = details;
  }

  /** The error of a response whose body may or may not be the envelope (a proxy's HTML page, say). */
  static from(response: Response, body: unknown): PsaApiError {
    const envelope = (body as { error?: unknown } | null)?.error;
    const requestId = response.headers.get('x-request-id');
    if (envelope && typeof envelope === 'object') {
      const { code, message, requestId: bodyRequestId, ...details } = envelope as Record<string, unknown>;
      if (typeof code === 'string' && typeof message === 'string') {
        return new PsaApiError(
          response.status,
          code,
          message,
          typeof bodyRequestId === 'string' ? bodyRequestId : requestId,
          details,
        );
      }
    }
    return new PsaApiError(
      response.status,
      'unexpected_response',
      `HTTP ${response.status} ${response.statusText || ''}`.trim(),
      requestId,
    );
  }
}

/** A wait (project provisioning, job processing) that ran past its deadline. */
export class PsaTimeoutError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PsaTimeoutError';
  }
}

/** A file upload that could not finish (its bytes, its parts or its completion). */
export class PsaUploadError extends Error {
  readonly fileName: string;
  constructor(fileName: string, message: string, options?: { cause?: unknown }) {
    super(`${fileName}: ${message}`, options);
    this.name = 'PsaUploadError';
    this.fileName = fileName;
  }
}

/** The review stream ended without a terminal event and could not be resumed. */
export class PsaStreamError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'PsaStreamError';
  }
}

/** A project whose provisioning ended `failed` (terminal; the charge is refunded). */
export class PsaProvisioningError extends Error {
  readonly projectId: string;
  constructor(projectId: string, message: string) {
    super(`Project ${projectId} failed to provision: ${message}`);
    this.name = 'PsaProvisioningError';
    this.projectId = projectId;
  }
}
