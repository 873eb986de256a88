/**
 * THE list of HTTP endpoints. Each is defined once, beside its handler
 * (`functions/handlers/http/<name>.endpoint.ts`: route, request, responses, access); the CDK stateless
 * stack builds one Lambda + one API route per entry from this list, the local server routes requests
 * with it, and the OpenAPI generator documents it. Nothing else lists routes.
 */

import { askReviewQuestionEndpoint } from '../handlers/http/ask-review-question.endpoint.ts';
import { completeUploadsEndpoint } from '../handlers/http/complete-uploads.endpoint.ts';
import { createApiKeyEndpoint } from '../handlers/http/create-api-key.endpoint.ts';
import { createJobEndpoint } from '../handlers/http/create-job.endpoint.ts';
import { createProjectEndpoint } from '../handlers/http/create-project.endpoint.ts';
import { createReviewEndpoint } from '../handlers/http/create-review.endpoint.ts';
import { deleteWebhookEndpoint } from '../handlers/http/delete-webhook.endpoint.ts';
import { downloadJobArtifactEndpoint } from '../handlers/http/download-job-artifact.endpoint.ts';
import { downloadProjectArtifactEndpoint } from '../handlers/http/download-project-artifact.endpoint.ts';
import { getJobEndpoint } from '../handlers/http/get-job.endpoint.ts';
import { getJobResultEndpoint } from '../handlers/http/get-job-result.endpoint.ts';
import { getProjectEndpoint } from '../handlers/http/get-project.endpoint.ts';
import { getProjectOverviewEndpoint } from '../handlers/http/get-project-overview.endpoint.ts';
import { getRegionTableEndpoint } from '../handlers/http/get-region-table.endpoint.ts';
import { getReviewEndpoint } from '../handlers/http/get-review.endpoint.ts';
import { getReviewExecutionEndpoint } from '../handlers/http/get-review-execution.endpoint.ts';
import { getWebhookEndpoint } from '../handlers/http/get-webhook.endpoint.ts';
import { listApiKeysEndpoint } from '../handlers/http/list-api-keys.endpoint.ts';
import { listDocumentsEndpoint } from '../handlers/http/list-documents.endpoint.ts';
import { listJobFilesEndpoint } from '../handlers/http/list-job-files.endpoint.ts';
import { listJobsEndpoint } from '../handlers/http/list-jobs.endpoint.ts';
import { listProjectJobsEndpoint } from '../handlers/http/list-project-jobs.endpoint.ts';
import { listProjectsEndpoint } from '../handlers/http/list-projects.endpoint.ts';
import { listRegionsEndpoint } from '../handlers/http/list-regions.endpoint.ts';
import { listReviewsEndpoint } from '../handlers/http/list-reviews.endpoint.ts';
import { listSheetRegionsEndpoint } from '../handlers/http/list-sheet-regions.endpoint.ts';
import { listSheetsEndpoint } from '../handlers/http/list-sheets.endpoint.ts';
import { listSpecificationSectionsEndpoint } from '../handlers/http/list-specification-sections.endpoint.ts';
import { listSpecificationsEndpoint } from '../handlers/http/list-specifications.endpoint.ts';
import { normalizeRegionsEndpoint } from '../handlers/http/normalize-regions.endpoint.ts';
import { putWebhookEndpoint } from '../handlers/http/put-webhook.endpoint.ts';
import { readSourceEndpoint } from '../handlers/http/read-source.endpoint.ts';
import { reconcileSourceIndexEndpoint } from '../handlers/http/reconcile-source-index.endpoint.ts';
import { registerUploadsEndpoint } from '../handlers/http/register-uploads.endpoint.ts';
import { revokeApiKeyEndpoint } from '../handlers/http/revoke-api-key.endpoint.ts';
import { searchProjectsEndpoint } from '../handlers/http/search-projects.endpoint.ts';
import { searchSourcesEndpoint } from '../handlers/http/search-sources.endpoint.ts';
import type { Endpoint } from './route-definition.ts';

export { STREAM_ROUTE } from '../handlers/url/stream-review-execution.endpoint.ts';
export type { Endpoint, RouteDefinition } from './route-definition.ts';

export const ROUTES = [
  createProjectEndpoint,
  listProjectsEndpoint,
  searchProjectsEndpoint,
  getProjectEndpoint,
  getProjectOverviewEndpoint,
  createJobEndpoint,
  listProjectJobsEndpoint,
  listJobsEndpoint,
  getJobEndpoint,
  listJobFilesEndpoint,
  registerUploadsEndpoint,
  completeUploadsEndpoint,
  listRegionsEndpoint,
  getRegionTableEndpoint,
  searchSourcesEndpoint,
  reconcileSourceIndexEndpoint,
  normalizeRegionsEndpoint,
  readSourceEndpoint,
  listSheetRegionsEndpoint,
  listSheetsEndpoint,
  listSpecificationsEndpoint,
  listSpecificationSectionsEndpoint,
  listDocumentsEndpoint,
  downloadProjectArtifactEndpoint,
  getJobResultEndpoint,
  downloadJobArtifactEndpoint,
  putWebhookEndpoint,
  getWebhookEndpoint,
  deleteWebhookEndpoint,
  createApiKeyEndpoint,
  listApiKeysEndpoint,
  revokeApiKeyEndpoint,
  createReviewEndpoint,
  listReviewsEndpoint,
  getReviewEndpoint,
  askReviewQuestionEndpoint,
  getReviewExecutionEndpoint,
] as const satisfies readonly Endpoint[];

export type RouteId = (typeof ROUTES)[number]['id'];

/** Handler that answers every request no route matched: 404 or 405 in the error envelope. */
export const FALLBACK_HANDLER = 'functions/handlers/http/route-not-found.ts';
