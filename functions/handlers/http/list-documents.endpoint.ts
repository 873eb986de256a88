import { z } from 'zod';
import { DocumentEntitySchema } from '../../core/content/model.ts';
import { ClassificationSchema } from '../../core/jobs/model.ts';
import { contentPage, PageEnvelopeSchema, projectIdPath, textParam } from '../../shared/http/params.ts';
import { endpoint, http } from '../../shared/route-definition.ts';

export const listDocumentsEndpoint = endpoint({
  id: 'listDocuments',
  method: 'GET',
  path: '/api/open/v1/projects/{projectId}/documents',
  handler: http('list-documents'),
  auth: 'apiKey',
  scope: 'jobs:read',
  access: { table: 'read', signingKey: 'read' },
  summary: 'List the documents (processed files) of the project',
  request: {
    path: projectIdPath,
    query: z
      .object({ ...contentPage, classification: ClassificationSchema.optional(), fileName: textParam })
      .strict(),
  },
  responses: {
    200: {
      description: 'Documents of the project.',
      schema: PageEnvelopeSchema.extend({ documents: z.array(DocumentEntitySchema) }),
    },
  },
});
