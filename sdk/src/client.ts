import createFetchClient, { type Client } from 'openapi-fetch';
import { PsaApiError } from './errors.ts';
import type { paths } from './generated/schema.ts';
import { type Page, paginate } from './paginate.ts';
import { DEFAULT_RETRY, type RetryOptions, retryingFetch } from './retry.ts';
import { type StreamOptions, streamExecution } from './stream.ts';
import type {
  CompleteUploadsRequest,
  CreateJobRequest,
  ListDocumentsQuery,
  ListJobFilesQuery,
  ListJobsQuery,
  ListProjectJobsQuery,
  ListProjectsQuery,
  ListRegionsQuery,
  ListReviewsQuery,
  ListSectionsQuery,
  ListSheetRegionsQuery,
  ListSheetsQuery,
  ListSpecificationsQuery,
  ProjectSearchRequest,
  RegisterUploadsRequest,
  Sheet,
  SourceSearchRequest,
  Specification,
} from './types.ts';
import { type WaitForJobOptions, type WaitForProjectOptions, waitForJob, waitForProject } from './wait.ts';

export interface ClientOptions {
  /** The service's base URL, e.g. `http://127.0.0.1:3000` (no path). */
  baseUrl: string;
  /** An API key (`psk_...`). Sent as a bearer token; never logged. */
  apiKey: string;
  retry?: Partial<RetryOptions>;
  /** A fetch to use instead of the global one (tests, proxies). */
  fetch?: typeof fetch;
}

/** The bytes of an artifact (a region crop PNG, a section PDF) and what the service said of them. */
export interface ArtifactBytes {
  bytes: Uint8Array;
  contentType: string;
  /** From `Content-Disposition`, when the service suggested one. */
  fileName: string | null;
}

type Result<T> = { data?: T; error?: unknown; response: Response };

/** The data of a 2xx reply, or the API's error as a `PsaApiError`. */
async function unwrap<T>(pending: Promise<Result<T>>): Promise<T> {
  const { data, error, response } = await pending;
  if (!response.ok || data === undefined) throw PsaApiError.from(response, error);
  return data;
}

const ARTIFACT_URL =
  /^\/api\/open\/v1\/(projects\/prj_[0-9a-z]+|jobs\/job_[0-9a-z]+)\/artifact\?path=[A-Za-z0-9%._~-]+$/;

function fileNameOf(disposition: string | null): string | null {
  const match = disposition?.match(/filename="?([^";]+)"?/i);
  // Only a plain base name: the header comes from the network and may try to climb directories.
  const name = match?.[1]?.split(/[\\/]/).pop();
  return name && name !== '.' && name !== '..' ? name : null;
}

/**
 * The Project Source API client: every endpoint through `api` (the openapi-fetch client typed by the
 * generated `paths`), and a thin hand-written layer for what a generator cannot write: iterators over
 * every listing, waits with the contract's polling rules, and the resumable review stream.
 */
export function createClient(options: ClientOptions) {
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  if (!/^https?:\/\/[^/]+$/.test(baseUrl))
    throw new Error(`Not a base URL (scheme and host only): ${baseUrl}`);
  if (!/^psk_[A-Za-z0-9_-]+$/.test(options.apiKey)) throw new Error('The API key is not of the form psk_...');
  const retry = { ...DEFAULT_RETRY, ...options.retry };
  const rawFetch = options.fetch ?? globalThis.fetch.bind(globalThis);
  const authorization = `Bearer ${options.apiKey}`;
  const api: Client<paths> = createFetchClient<paths>({
    baseUrl,
    headers: { authorization },
    fetch: retryingFetch(rawFetch, retry),
  });

  const page = <T>(items: T[], nextCursor: string | null | undefined): Page<T> => ({
    items,
    nextCursor: nextCursor ?? null,
  });
  const idempotencyKey = () => globalThis.crypto.randomUUID();

  const projects = {
    create: (name: string) => unwrap(api.POST('/api/open/v1/projects', { body: { name } })),
    get: async (projectId: string) =>
      (await unwrap(api.GET('/api/open/v1/projects/{projectId}', { params: { path: { projectId } } })))
        .project,
    overview: (projectId: string) =>
      unwrap(api.GET('/api/open/v1/projects/{projectId}/overview', { params: { path: { projectId } } })),
    list: (query: ListProjectsQuery = {}) =>
      paginate(async (cursor) => {
        const data = await unwrap(
          api.GET('/api/open/v1/projects', { params: { query: { ...query, cursor } } }),
        );
        return page(data.projects, data.nextCursor);
      }),
    search: (body: ProjectSearchRequest) => unwrap(api.POST('/api/open/v1/projects/search', { body })),
    waitUntilReady: (projectId: string, waitOptions?: WaitForProjectOptions) =>
      waitForProject(() => projects.get(projectId), waitOptions),
  };

  const jobs = {
    create: async (projectId: string, body: CreateJobRequest = {}) =>
      (
        await unwrap(
          api.POST('/api/open/v1/projects/{projectId}/jobs', { params: { path: { projectId } }, body }),
        )
      ).job,
    get: async (jobId: string) =>
      (await unwrap(api.GET('/api/open/v1/jobs/{jobId}', { params: { path: { jobId } } }))).job,
    list: (query: ListJobsQuery = {}) =>
      paginate(async (cursor) => {
        const data = await unwrap(api.GET('/api/open/v1/jobs', { params: { query: { ...query, cursor } } }));
        return page(data.jobs, data.nextCursor);
      }),
    listForProject: (projectId: string, query: ListProjectJobsQuery = {}) =>
      paginate(async (cursor) => {
        const data = await unwrap(
          api.GET('/api/open/v1/projects/{projectId}/jobs', {
            params: { path: { projectId }, query: { ...query, cursor } },
          }),
        );
        return page(data.jobs, data.nextCursor);
      }),
    files: (jobId: string, query: ListJobFilesQuery = {}) =>
      paginate(async (cursor) => {
        const data = await unwrap(
          api.GET('/api/open/v1/jobs/{jobId}/files', {
            params: { path: { jobId }, query: { ...query, cursor } },
          }),
        );
        return page(data.files, data.nextCursor);
      }),
    /** The immutable result of an ended job (its artifacts are listed by `resultArtifacts`). */
    result: async (jobId: string) =>
      (await unwrap(api.GET('/api/open/v1/jobs/{jobId}/result', { params: { path: { jobId } } }))).result,
    resultArtifacts: (jobId: string) =>
      paginate(async (cursor) => {
        const data = await unwrap(
          api.GET('/api/open/v1/jobs/{jobId}/result', { params: { path: { jobId }, query: { cursor } } }),
        );
        return page(data.result.artifacts, data.nextCursor);
      }),
    registerUploads: (jobId: string, body: RegisterUploadsRequest) =>
      unwrap(api.POST('/api/open/v1/jobs/{jobId}/uploads', { params: { path: { jobId } }, body })),
    completeUploads: (jobId: string, body: CompleteUploadsRequest) =>
      unwrap(api.POST('/api/open/v1/jobs/{jobId}/uploads/complete', { params: { path: { jobId } }, body })),
    waitUntilDone: (jobId: string, waitOptions?: WaitForJobOptions) =>
      waitForJob(() => jobs.get(jobId), waitOptions),
  };

  const regions = {
    list: (projectId: string, query: ListRegionsQuery = {}) =>
      paginate(async (cursor) => {
        const data = await unwrap(
          api.GET('/api/open/v1/projects/{projectId}/regions', {
            params: { path: { projectId }, query: { ...query, cursor } },
          }),
        );
        return page(data.regions, data.nextCursor);
      }),
    /** The table a schedule, legend, index or log region prints: header rows, body rows with cell boxes. */
    table: (projectId: string, regionId: string) =>
      unwrap(
        api.GET('/api/open/v1/projects/{projectId}/regions/{regionId}/table', {
          params: { path: { projectId, regionId }, query: { format: 'json' } },
        }),
      ),
    /** The same table as CSV (RFC 4180, header rows first). */
    tableCsv: async (projectId: string, regionId: string): Promise<string> => {
      const { data, error, response } = await api.GET(
        '/api/open/v1/projects/{projectId}/regions/{regionId}/table',
        {
          params: { path: { projectId, regionId }, query: { format: 'csv' } },
          parseAs: 'text',
        },
      );
      if (!response.ok || data === undefined) throw PsaApiError.from(response, error);
      return data;
    },
    listForSheet: (projectId: string, sheetId: string, query: ListSheetRegionsQuery = {}) =>
      paginate(async (cursor) => {
        const data = await unwrap(
          api.GET('/api/open/v1/projects/{projectId}/sheets/{sheetId}/regions', {
            params: { path: { projectId, sheetId }, query: { ...query, cursor } },
          }),
        );
        return page(data.regions, data.nextCursor);
      }),
  };

  const sheets = {
    list: (projectId: string, query: ListSheetsQuery = {}): AsyncGenerator<Sheet> =>
      paginate(async (cursor) => {
        const data = await unwrap(
          api.GET('/api/open/v1/projects/{projectId}/sheets', {
            params: { path: { projectId }, query: { ...query, cursor } },
          }),
        );
        return page(data.sheets, data.nextCursor);
      }),
  };

  const specifications = {
    list: (projectId: string, query: ListSpecificationsQuery = {}): AsyncGenerator<Specification> =>
      paginate(async (cursor) => {
        const data = await unwrap(
          api.GET('/api/open/v1/projects/{projectId}/specifications', {
            params: { path: { projectId }, query: { ...query, cursor } },
          }),
        );
        return page(data.specifications, data.nextCursor);
      }),
    sections: (projectId: string, specId: string, query: ListSectionsQuery = {}) =>
      paginate(async (cursor) => {
        const data = await unwrap(
          api.GET('/api/open/v1/projects/{projectId}/specifications/{specId}/sections', {
            params: { path: { projectId, specId }, query: { ...query, cursor } },
          }),
        );
        return page(data.sections, data.nextCursor);
      }),
  };

  const documents = {
    list: (projectId: string, query: ListDocumentsQuery = {}) =>
      paginate(async (cursor) => {
        const data = await unwrap(
          api.GET('/api/open/v1/projects/{projectId}/documents', {
            params: { path: { projectId }, query: { ...query, cursor } },
          }),
        );
        return page(data.documents, data.nextCursor);
      }),
  };

  const sources = {
    search: (projectId: string, body: SourceSearchRequest) =>
      unwrap(
        api.POST('/api/open/v1/projects/{projectId}/source-search', {
          params: { path: { projectId } },
          body,
        }),
      ),
    /** The text of a `sourceCatalogUri` (from a hit or a citation), with its pages, box and artifacts. */
    read: (projectId: string, uri: string, window: { offset?: number; limit?: number } = {}) =>
      unwrap(
        api.GET('/api/open/v1/projects/{projectId}/sources', {
          params: { path: { projectId }, query: { uri, ...window } },
        }),
      ),
  };

  const reviews = {
    create: async (projectId: string, name: string, key = idempotencyKey()) =>
      (
        await unwrap(
          api.POST('/api/open/v1/projects/{projectId}/reviews', {
            params: { path: { projectId }, header: { 'idempotency-key': key } },
            body: { name },
          }),
        )
      ).review,
    get: async (projectId: string, reviewId: string) =>
      (
        await unwrap(
          api.GET('/api/open/v1/projects/{projectId}/reviews/{reviewId}', {
            params: { path: { projectId, reviewId } },
          }),
        )
      ).review,
    list: (projectId: string, query: ListReviewsQuery = {}) =>
      paginate(async (cursor) => {
        const data = await unwrap(
          api.GET('/api/open/v1/projects/{projectId}/reviews', {
            params: { path: { projectId }, query: { ...query, cursor } },
          }),
        );
        return page(data.reviews, data.nextCursor);
      }),
    /** Asks a question (202): the execution carries `streamUrl` (for `streamExecution`) and `url`. */
    ask: async (projectId: string, reviewId: string, question: string, key = idempotencyKey()) =>
      (
        await unwrap(
          api.POST('/api/open/v1/projects/{projectId}/reviews/{reviewId}/executions', {
            params: { path: { projectId, reviewId }, header: { 'idempotency-key': key } },
            body: { question },
          }),
        )
      ).execution,
    execution: async (projectId: string, reviewId: string, executionId: string) =>
      (
        await unwrap(
          api.GET('/api/open/v1/projects/{projectId}/reviews/{reviewId}/executions/{executionId}', {
            params: { path: { projectId, reviewId, executionId } },
          }),
        )
      ).execution,
  };

  const artifacts = {
    /**
     * The bytes behind an artifact `url` of a response (region crop, section PDF, job artifact). Only
     * the service's own relative artifact paths are accepted: a URL from elsewhere never gets the key.
     */
    download: async (url: string): Promise<ArtifactBytes> => {
      if (!ARTIFACT_URL.test(url))
        throw new Error(`Not an artifact URL of this service: ${url.slice(0, 200)}`);
      const response = await retryingFetch(rawFetch, retry)(`${baseUrl}${url}`, {
        headers: { authorization },
      });
      if (!response.ok) {
        const body = await response.json().catch(() => null);
        throw PsaApiError.from(response, body);
      }
      return {
        bytes: new Uint8Array(await response.arrayBuffer()),
        contentType: response.headers.get('content-type') ?? 'application/octet-stream',
        fileName: fileNameOf(response.headers.get('content-disposition')),
      };
    },
  };

  return {
    baseUrl,
    /** Every endpoint, typed from docs/openapi.json (openapi-fetch). */
    api,
    projects,
    jobs,
    regions,
    sheets,
    specifications,
    documents,
    sources,
    reviews,
    artifacts,
    waitForProject: projects.waitUntilReady,
    waitForJob: jobs.waitUntilDone,
    /** The events of an execution as they are written, resumed with `after` across drops; ends at the terminal event. */
    streamExecution: (execution: { streamUrl: string }, streamOptions: StreamOptions = {}) =>
      streamExecution({ baseUrl, authorization, fetch: rawFetch }, execution.streamUrl, streamOptions),
  };
}

export type PsaClient = ReturnType<typeof createClient>;
