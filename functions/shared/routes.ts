/**
 * THE route table: method, path, handler file, authentication and required scope of every HTTP
 * endpoint. The CDK stateless stack builds one Lambda + one API route per entry from it, the local
 * server routes requests with it, and the OpenAPI generator documents it. Nothing else lists routes
 * (the review routes are one part of it, in `review-routes.ts`).
 */

import type { Scope } from '../core/auth/scopes.ts';

export type { Scope };

import { REVIEW_ROUTES } from './review-routes.ts';
import { http, type RouteDefinition } from './route-definition.ts';

/**
 * Memory of the functions that open project indexes on S3, and so their CPU share (a full vCPU at
 * 1,769 MB). npm run bench:search-sizing (figures in docs/decisions.md): a search process holds 126 MB
 * before it opens an index, peaks at 215 MB for an exact scan just under the vector-index threshold
 * and at 198 MB for an indexed project of 50,000 rows, and each open project adds about 4 MB (at most
 * OPEN_PROJECTS are kept: 250 MB). 1,024 MB keeps that under half, with 0.58 vCPU for decoding.
 */
export const SEARCH_MEMORY_MB = 1024;

export type { RouteDefinition };

export const ROUTES = [
  {
    id: 'createProject',
    method: 'POST',
    path: '/api/open/v1/projects',
    handler: http('create-project'),
    auth: 'apiKey',
    scope: 'projects:write',
    access: { table: 'readwrite', provisionStateMachine: 'start' },
    summary: 'Create a project (charges credits; provisioned asynchronously)',
  },
  {
    id: 'listProjects',
    method: 'GET',
    path: '/api/open/v1/projects',
    handler: http('list-projects'),
    auth: 'apiKey',
    scope: 'jobs:read',
    access: { table: 'read', signingKey: 'read' },
    summary: 'List the projects of the organization',
  },
  {
    id: 'searchProjects',
    method: 'POST',
    path: '/api/open/v1/projects/search',
    handler: http('search-projects'),
    auth: 'apiKey',
    scope: 'jobs:read',
    access: { table: 'read', indexBucket: 'read', embeddingModel: 'invoke', signingKey: 'read' },
    usesIndex: true,
    memoryMb: SEARCH_MEMORY_MB,
    summary: "Search the organization's projects by name and by their sources",
  },
  {
    id: 'getProject',
    method: 'GET',
    path: '/api/open/v1/projects/{projectId}',
    handler: http('get-project'),
    auth: 'apiKey',
    scope: 'jobs:read',
    access: { table: 'read' },
    summary: 'Get one project (poll it until it is ready)',
  },
  {
    id: 'getProjectOverview',
    method: 'GET',
    path: '/api/open/v1/projects/{projectId}/overview',
    handler: http('get-project-overview'),
    auth: 'apiKey',
    scope: 'jobs:read',
    access: { table: 'read' },
    summary: 'Counts, disciplines, latest job, next action and capabilities of a project',
  },
  {
    id: 'createJob',
    method: 'POST',
    path: '/api/open/v1/projects/{projectId}/jobs',
    handler: http('create-job'),
    auth: 'apiKey',
    scope: 'jobs:write',
    access: { table: 'readwrite' },
    summary: 'Create a processing job in a ready project',
  },
  {
    id: 'listProjectJobs',
    method: 'GET',
    path: '/api/open/v1/projects/{projectId}/jobs',
    handler: http('list-project-jobs'),
    auth: 'apiKey',
    scope: 'jobs:read',
    access: { table: 'read', signingKey: 'read' },
    summary: 'List the jobs of one project, newest first',
  },
  {
    id: 'listJobs',
    method: 'GET',
    path: '/api/open/v1/jobs',
    handler: http('list-jobs'),
    auth: 'apiKey',
    scope: 'jobs:read',
    access: { table: 'read', signingKey: 'read' },
    summary: 'List the jobs of the organization, newest first',
  },
  {
    id: 'getJob',
    method: 'GET',
    path: '/api/open/v1/jobs/{jobId}',
    handler: http('get-job'),
    auth: 'apiKey',
    scope: 'jobs:read',
    access: { table: 'read' },
    summary: 'Get one job with its first files embedded',
  },
  {
    id: 'listJobFiles',
    method: 'GET',
    path: '/api/open/v1/jobs/{jobId}/files',
    handler: http('list-job-files'),
    auth: 'apiKey',
    scope: 'jobs:read',
    access: { table: 'read', signingKey: 'read' },
    summary: 'Page through all files of a job',
  },
  {
    id: 'registerUploads',
    method: 'POST',
    path: '/api/open/v1/jobs/{jobId}/uploads',
    handler: http('register-uploads'),
    auth: 'apiKey',
    scope: 'jobs:write',
    access: { table: 'readwrite', uploadsBucket: 'readwrite', signingKey: 'read' },
    summary: 'Register files and get signed upload instructions',
  },
  {
    id: 'completeUploads',
    method: 'POST',
    path: '/api/open/v1/jobs/{jobId}/uploads/complete',
    handler: http('complete-uploads'),
    auth: 'apiKey',
    scope: 'jobs:write',
    access: {
      table: 'readwrite',
      uploadsBucket: 'readwrite',
      signingKey: 'read',
      processJobStateMachine: 'start',
    },
    summary: 'Complete uploads; processing starts once no file is pending',
  },
  {
    id: 'listRegions',
    method: 'GET',
    path: '/api/open/v1/projects/{projectId}/regions',
    handler: http('list-regions'),
    auth: 'apiKey',
    scope: 'jobs:read',
    access: { table: 'read', signingKey: 'read' },
    summary: 'List the regions extracted from drawing sheets, with filters',
  },
  {
    id: 'getRegionTable',
    method: 'GET',
    path: '/api/open/v1/projects/{projectId}/regions/{regionId}/table',
    handler: http('get-region-table'),
    auth: 'apiKey',
    scope: 'jobs:read',
    access: { table: 'read' },
    summary: "A table region's header and rows with cell boxes, as JSON or CSV",
  },
  {
    id: 'searchSources',
    method: 'POST',
    path: '/api/open/v1/projects/{projectId}/source-search',
    handler: http('search-sources'),
    auth: 'apiKey',
    scope: 'jobs:read',
    access: { table: 'read', indexBucket: 'read', embeddingModel: 'invoke' },
    usesIndex: true,
    memoryMb: SEARCH_MEMORY_MB,
    summary: 'Search the sources of a project (exact, semantic or hybrid), with filters',
  },
  {
    id: 'reconcileSourceIndex',
    method: 'POST',
    path: '/api/open/v1/projects/{projectId}/source-index/reconcile',
    handler: http('reconcile-source-index'),
    auth: 'apiKey',
    scope: 'jobs:write',
    // Reads the index's inventory and the embedder's id; the reconcile job writes (reconcile-index.asl.json).
    access: {
      table: 'readwrite',
      indexBucket: 'read',
      embeddingModel: 'invoke',
      reconcileIndexStateMachine: 'start',
    },
    usesIndex: true,
    memoryMb: SEARCH_MEMORY_MB,
    summary:
      "Compare a project's documents with its source index and schedule a job that repairs up to `limit` differences",
  },
  {
    id: 'normalizeRegions',
    method: 'POST',
    path: '/api/open/v1/projects/{projectId}/regions/normalize',
    handler: http('normalize-regions'),
    auth: 'apiKey',
    scope: 'jobs:write',
    access: { table: 'readwrite', normalizeRegionsStateMachine: 'start' },
    summary: 'Schedule a repair job over regions without normalized data',
  },
  {
    id: 'readSource',
    method: 'GET',
    path: '/api/open/v1/projects/{projectId}/sources',
    handler: http('read-source'),
    auth: 'apiKey',
    scope: 'jobs:read',
    access: { table: 'read', indexBucket: 'read', signingKey: 'read' },
    usesIndex: true,
    memoryMb: SEARCH_MEMORY_MB,
    summary: 'Read the full text of a source (by its sourceCatalogUri), with its pages, box and artifacts',
  },
  {
    id: 'listSheetRegions',
    method: 'GET',
    path: '/api/open/v1/projects/{projectId}/sheets/{sheetId}/regions',
    handler: http('list-sheet-regions'),
    auth: 'apiKey',
    scope: 'jobs:read',
    access: { table: 'read', signingKey: 'read' },
    summary: 'List the regions of one sheet',
  },
  {
    id: 'listSheets',
    method: 'GET',
    path: '/api/open/v1/projects/{projectId}/sheets',
    handler: http('list-sheets'),
    auth: 'apiKey',
    scope: 'jobs:read',
    access: { table: 'read', signingKey: 'read' },
    summary: 'List drawing sheets (number, title, discipline, revisions)',
  },
  {
    id: 'listSpecifications',
    method: 'GET',
    path: '/api/open/v1/projects/{projectId}/specifications',
    handler: http('list-specifications'),
    auth: 'apiKey',
    scope: 'jobs:read',
    access: { table: 'read', signingKey: 'read' },
    summary: 'List specification sections of the project with their facets',
  },
  {
    id: 'listSpecificationSections',
    method: 'GET',
    path: '/api/open/v1/projects/{projectId}/specifications/{specId}/sections',
    handler: http('list-specification-sections'),
    auth: 'apiKey',
    scope: 'jobs:read',
    access: { table: 'read', signingKey: 'read' },
    summary: 'List the sections of one specification document',
  },
  {
    id: 'listDocuments',
    method: 'GET',
    path: '/api/open/v1/projects/{projectId}/documents',
    handler: http('list-documents'),
    auth: 'apiKey',
    scope: 'jobs:read',
    access: { table: 'read', signingKey: 'read' },
    summary: 'List the documents (processed files) of the project',
  },
  {
    id: 'downloadProjectArtifact',
    method: 'GET',
    path: '/api/open/v1/projects/{projectId}/artifact',
    handler: http('download-project-artifact'),
    auth: 'apiKey',
    scope: 'artifacts:read',
    access: { table: 'read', signingKey: 'read', artifactsBucket: 'read' },
    summary: 'Download an artifact (region crop, section PDF) exposed by this project',
  },
  {
    id: 'getJobResult',
    method: 'GET',
    path: '/api/open/v1/jobs/{jobId}/result',
    handler: http('get-job-result'),
    auth: 'apiKey',
    scope: 'jobs:read',
    access: { table: 'read', signingKey: 'read', artifactsBucket: 'read' },
    summary: 'The immutable result of a finished job, with its artifacts',
  },
  {
    id: 'downloadJobArtifact',
    method: 'GET',
    path: '/api/open/v1/jobs/{jobId}/artifact',
    handler: http('download-job-artifact'),
    auth: 'apiKey',
    scope: 'artifacts:read',
    access: { table: 'read', signingKey: 'read', artifactsBucket: 'read' },
    summary: "Download an artifact listed in the job's result",
  },
  {
    id: 'putWebhook',
    method: 'PUT',
    path: '/api/open-api/webhook',
    handler: http('put-webhook'),
    auth: 'session',
    access: { table: 'readwrite', signingKey: 'read' },
    summary: 'Set the webhook notified when jobs finish (returns its signing secret once)',
  },
  {
    id: 'getWebhook',
    method: 'GET',
    path: '/api/open-api/webhook',
    handler: http('get-webhook'),
    auth: 'session',
    access: { table: 'read' },
    summary: 'The organization webhook (without its secret)',
  },
  {
    id: 'deleteWebhook',
    method: 'DELETE',
    path: '/api/open-api/webhook',
    handler: http('delete-webhook'),
    auth: 'session',
    access: { table: 'readwrite' },
    summary: 'Remove the organization webhook',
  },
  {
    id: 'createApiKey',
    method: 'POST',
    path: '/api/open-api/keys',
    handler: http('create-api-key'),
    auth: 'session',
    access: { table: 'readwrite' },
    summary: 'Create an API key (the secret is returned once)',
  },
  {
    id: 'listApiKeys',
    method: 'GET',
    path: '/api/open-api/keys',
    handler: http('list-api-keys'),
    auth: 'session',
    access: { table: 'read', signingKey: 'read' },
    summary: 'List the API keys of the organization',
  },
  {
    id: 'revokeApiKey',
    method: 'POST',
    path: '/api/open-api/keys/{keyId}/revoke',
    handler: http('revoke-api-key'),
    auth: 'session',
    access: { table: 'readwrite' },
    summary: 'Revoke an API key, immediately and permanently',
  },
  ...REVIEW_ROUTES,
] as const satisfies readonly RouteDefinition[];

export type RouteId = (typeof ROUTES)[number]['id'];

export function routeById(id: RouteId): RouteDefinition {
  const route = ROUTES.find((candidate) => candidate.id === id);
  if (!route) throw new Error(`Unknown route id ${id}`);
  return route;
}

/** Handler that answers every request no route matched: 404 or 405 in the error envelope. */
export const FALLBACK_HANDLER = http('route-not-found');

/**
 * The review stream is not an API Gateway route (API Gateway cannot stream): a Lambda function URL
 * in RESPONSE_STREAM mode serves it. The local server mounts it on the same origin.
 */
export const STREAM_ROUTE = {
  id: 'streamReviewExecution',
  method: 'GET',
  path: '/api/open/v1/projects/{projectId}/reviews/{reviewId}/executions/{executionId}/stream',
  handler: 'functions/handlers/url/stream-review-execution.ts',
  auth: 'apiKey',
  scope: 'reviews:read',
  access: { table: 'read' },
  summary: 'Stream (and replay) the public events of a review execution as SSE or NDJSON',
} as const satisfies RouteDefinition;
