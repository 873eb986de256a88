import { z } from 'zod';
import { NormalizationSchema } from '../../core/content/normalize-regions.ts';
import { ProjectOverviewSchema, ProjectSchema } from '../../core/projects/model.ts';
import { projectIdPath } from '../../shared/http/params.ts';
import { NormalizeRegionsBodySchema } from '../../shared/http/request-bodies.ts';
import { endpoint, http } from '../../shared/route-definition.ts';

const NormalizeRegionsResponseSchema = z.object({
  project: ProjectSchema,
  normalization: NormalizationSchema,
  overview: ProjectOverviewSchema,
});

export const normalizeRegionsEndpoint = endpoint({
  id: 'normalizeRegions',
  method: 'POST',
  path: '/api/open/v1/projects/{projectId}/regions/normalize',
  handler: http('normalize-regions'),
  auth: 'apiKey',
  scope: 'jobs:write',
  access: { table: 'readwrite', normalizeRegionsStateMachine: 'start' },
  summary: 'Schedule a repair job over regions without normalized data',
  request: { path: projectIdPath, body: NormalizeRegionsBodySchema },
  responses: {
    200: {
      description: 'No ready document has a region to normalize: `jobId` null, nothing scheduled.',
      schema: NormalizeRegionsResponseSchema,
    },
    202: {
      description:
        'A repair job (kind `region_normalization`, free of charge) was scheduled, or the one already running is returned; follow it with `GET /jobs/{jobId}`.',
      schema: NormalizeRegionsResponseSchema,
    },
    400: {
      description:
        '`invalid_request`: a mode other than `missing_normalized_regions`, an empty or over-long `documentIds`, unknown field.',
    },
    404: {
      description: '`project_not_found`.',
    },
    409: { description: '`project_not_ready`.' },
  },
});
