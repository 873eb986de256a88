import { z } from 'zod';
import { RegionEntitySchema } from '../../core/content/model.ts';
import { PageEnvelopeSchema, regionQuery } from '../../shared/http/params.ts';
import { endpoint, http } from '../../shared/route-definition.ts';

export const listSheetRegionsEndpoint = endpoint({
  id: 'listSheetRegions',
  method: 'GET',
  path: '/api/open/v1/projects/{projectId}/sheets/{sheetId}/regions',
  handler: http('list-sheet-regions'),
  auth: 'apiKey',
  scope: 'jobs:read',
  access: { table: 'read', signingKey: 'read' },
  summary: 'List the regions of one sheet',
  request: {
    path: z.object({ projectId: z.string(), sheetId: z.string() }),
    query: regionQuery.strict(),
  },
  responses: {
    200: {
      description: 'Regions of the sheet.',
      schema: PageEnvelopeSchema.extend({ regions: z.array(RegionEntitySchema) }),
    },
    404: { description: '`project_not_found`, `sheet_not_found`.' },
  },
});
