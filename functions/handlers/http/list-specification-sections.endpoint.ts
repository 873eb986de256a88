import { z } from 'zod';
import { SectionEntitySchema } from '../../core/content/model.ts';
import { PageEnvelopeSchema, sectionQuery } from '../../shared/http/params.ts';
import { endpoint, http } from '../../shared/route-definition.ts';

export const listSpecificationSectionsEndpoint = endpoint({
  id: 'listSpecificationSections',
  method: 'GET',
  path: '/api/open/v1/projects/{projectId}/specifications/{specId}/sections',
  handler: http('list-specification-sections'),
  auth: 'apiKey',
  scope: 'jobs:read',
  access: { table: 'read', signingKey: 'read' },
  summary: 'List the sections of one specification document',
  request: {
    path: z.object({ projectId: z.string(), specId: z.string() }),
    query: sectionQuery.strict(),
  },
  responses: {
    200: {
      description: 'Sections of the specification document.',
      schema: PageEnvelopeSchema.extend({ sections: z.array(SectionEntitySchema) }),
    },
    404: { description: '`open_api_specification_not_found`.' },
  },
});
