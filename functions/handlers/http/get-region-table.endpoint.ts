import { z } from 'zod';
import { TableSchema } from '../../engine/model.ts';
import { endpoint, http } from '../../shared/route-definition.ts';

export const getRegionTableEndpoint = endpoint({
  id: 'getRegionTable',
  method: 'GET',
  path: '/api/open/v1/projects/{projectId}/regions/{regionId}/table',
  handler: http('get-region-table'),
  auth: 'apiKey',
  scope: 'jobs:read',
  access: { table: 'read' },
  summary: "A table region's header and rows with cell boxes, as JSON or CSV",
  request: {
    path: z.object({ projectId: z.string(), regionId: z.string().max(120) }),
    query: z
      .object({
        format: z
          .enum(['json', 'csv'])
          .default('json')
          .describe('`csv`: the table as `text/csv` (RFC 4180), header rows first, as an attachment.'),
      })
      .strict(),
  },
  responses: {
    200: {
      description:
        "The table the region prints: title, frame, header rows (a heading merged over columns repeated in each), body rows with each cell's text and box. With `format=csv`, the same as CSV.",
      schema: z.object({
        regionId: z.string(),
        label: z.string(),
        regionType: z.string(),
        fileId: z.string(),
        fileName: z.string(),
        pageNumber: z.number().int(),
        sheetNumber: z.string(),
        table: TableSchema,
      }),
    },
    404: {
      description:
        '`project_not_found`, `region_not_found`, `table_not_found` (the region is not a ruled table).',
    },
  },
});
