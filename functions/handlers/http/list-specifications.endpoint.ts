import { z } from 'zod';
import { SpecificationEntitySchema } from '../../core/content/model.ts';
import { ClassificationSchema } from '../../core/jobs/model.ts';
import {
  csvParam,
  idParam,
  PageEnvelopeSchema,
  projectIdPath,
  sectionQuery,
  textParam,
} from '../../shared/http/params.ts';
import { endpoint, http } from '../../shared/route-definition.ts';

export const listSpecificationsEndpoint = endpoint({
  id: 'listSpecifications',
  method: 'GET',
  path: '/api/open/v1/projects/{projectId}/specifications',
  handler: http('list-specifications'),
  auth: 'apiKey',
  scope: 'jobs:read',
  access: { table: 'read', signingKey: 'read' },
  summary: 'List specification sections of the project with their facets',
  request: {
    path: projectIdPath,
    query: sectionQuery
      .extend({
        sheets: csvParam.describe(
          'Comma-separated sheet ids: only sections referenced by the regions of these sheets (together at most 400 distinct sections, else 400 `too_many_referenced_sections`).',
        ),
        fileId: idParam,
        fileName: textParam,
        classification: ClassificationSchema.optional(),
      })
      .strict(),
  },
  responses: {
    200: {
      description:
        'Specification sections with their facets. A page may hold fewer than `limit` items to stay under the 6 MB response limit; follow nextCursor.',
      schema: PageEnvelopeSchema.extend({ specifications: z.array(SpecificationEntitySchema) }),
    },
    400: {
      description:
        '`invalid_request` (names the field), `invalid_cursor`; `too_many_referenced_sections` when the sheets given reference more than 400 sections.',
    },
  },
});
