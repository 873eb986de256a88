import { z } from 'zod';
import { SheetEntitySchema } from '../../core/content/model.ts';
import {
  booleanParam,
  contentPage,
  idParam,
  PageEnvelopeSchema,
  projectIdPath,
  textParam,
} from '../../shared/http/params.ts';
import { endpoint, http } from '../../shared/route-definition.ts';

export const listSheetsEndpoint = endpoint({
  id: 'listSheets',
  method: 'GET',
  path: '/api/open/v1/projects/{projectId}/sheets',
  handler: http('list-sheets'),
  auth: 'apiKey',
  scope: 'jobs:read',
  access: { table: 'read', signingKey: 'read' },
  summary: 'List drawing sheets (number, title, discipline, revisions)',
  request: {
    path: projectIdPath,
    query: z
      .object({
        ...contentPage,
        fileId: idParam,
        fileName: textParam,
        sheetNumber: textParam,
        discipline: z
          .string()
          .regex(/^[A-Z]{1,2}$/, 'must be a discipline designator such as A or FP')
          .optional(),
        includeSuperseded: booleanParam
          .optional()
          .describe(
            'true: superseded sheets (a later upload revises them) are listed too. Default false: only current sheets; `total` counts what is listed.',
          ),
      })
      .strict(),
  },
  responses: {
    200: {
      description: 'Sheets in file and page order.',
      schema: PageEnvelopeSchema.extend({ sheets: z.array(SheetEntitySchema) }),
    },
  },
});
