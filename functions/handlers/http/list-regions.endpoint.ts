import { z } from 'zod';
import { RegionEntitySchema } from '../../core/content/model.ts';
import {
  csvParam,
  idParam,
  PageEnvelopeSchema,
  projectIdPath,
  regionQuery,
} from '../../shared/http/params.ts';
import { endpoint, http } from '../../shared/route-definition.ts';

export const listRegionsEndpoint = endpoint({
  id: 'listRegions',
  method: 'GET',
  path: '/api/open/v1/projects/{projectId}/regions',
  handler: http('list-regions'),
  auth: 'apiKey',
  scope: 'jobs:read',
  access: { table: 'read', signingKey: 'read' },
  summary: 'List the regions extracted from drawing sheets, with filters',
  request: {
    path: projectIdPath,
    query: regionQuery.extend({ sheets: csvParam, sheetId: idParam }).strict(),
  },
  responses: {
    200: {
      description: 'Regions in file, page and position order.',
      schema: PageEnvelopeSchema.extend({ regions: z.array(RegionEntitySchema) }),
    },
  },
});
