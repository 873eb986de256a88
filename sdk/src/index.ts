export { type ArtifactBytes, type ClientOptions, createClient, type PsaClient } from './client.ts';
export {
  PsaApiError,
  PsaProvisioningError,
  PsaStreamError,
  PsaTimeoutError,
  PsaUploadError,
} from './errors.ts';
export type { components, operations, paths } from './generated/schema.ts';
export { type Page, paginate } from './paginate.ts';
export { DEFAULT_RETRY, type RetryOptions } from './retry.ts';
export { type ReviewStreamEvent, type StreamOptions, TERMINAL_EVENTS } from './stream.ts';
export type * from './types.ts';
export {
  type UploadOptions,
  type UploadProgressEvent,
  type UploadResult,
  type UploadSource,
  type UploadState,
  uploadSources,
} from './upload.ts';
export { JOB_POLL, PROJECT_POLL, type WaitForJobOptions, type WaitForProjectOptions } from './wait.ts';
