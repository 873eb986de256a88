import { z } from 'zod';
import { ProjectOverviewSchema, ProjectSchema } from '../../core/projects/model.ts';
import { SourceIndexReportSchema } from '../../core/search/model.ts';
import { projectIdPath } from '../../shared/http/params.ts';
import { ReconcileBodySchema } from '../../shared/http/request-bodies.ts';
import { endpoint, http, SEARCH_MEMORY_MB } from '../../shared/route-definition.ts';

const ReconcileResponseSchema = z.object({
  project: ProjectSchema,
  sourceIndex: SourceIndexReportSchema,
  overview: ProjectOverviewSchema,
});

export const reconcileSourceIndexEndpoint = endpoint({
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
  request: { path: projectIdPath, body: ReconcileBodySchema },
  responses: {
    200: {
      description:
        'Nothing differs between the documents and the index (`sourceIndex.status` `ok`, `jobId` null).',
      schema: ReconcileResponseSchema,
    },
    202: {
      description:
        'A reconcile job (kind `index_reconciliation`, free of charge) was scheduled to repair up to `limit` differences, or the one already running is returned; the request itself writes nothing. Follow it with `GET /jobs/{jobId}`, then call again until `ok`.',
      schema: ReconcileResponseSchema,
    },
    400: { description: '`invalid_request`: `limit` outside 1 to 25.' },
    404: { description: '`project_not_found`.' },
    409: { description: '`project_not_ready`.' },
  },
});
