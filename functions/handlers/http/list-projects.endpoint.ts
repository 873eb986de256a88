import { z } from 'zod';
import { ProjectOverviewSchema, ProjectSchema } from '../../core/projects/model.ts';
import { cursorParam, limitParam, PageEnvelopeSchema } from '../../shared/http/params.ts';
import { endpoint, http } from '../../shared/route-definition.ts';

export const listProjectsEndpoint = endpoint({
  id: 'listProjects',
  method: 'GET',
  path: '/api/open/v1/projects',
  handler: http('list-projects'),
  auth: 'apiKey',
  scope: 'jobs:read',
  access: { table: 'read', signingKey: 'read' },
  summary: 'List the projects of the organization',
  request: {
    query: z
      .object({
        limit: limitParam(100, 25),
        cursor: cursorParam,
        include: z.enum(['overview']).optional().describe("`overview` adds each project's ProjectOverview."),
      })
      .strict(),
  },
  responses: {
    200: {
      description: 'Projects, newest first.',
      schema: PageEnvelopeSchema.extend({
        projects: z.array(ProjectSchema.extend({ overview: ProjectOverviewSchema.optional() })),
      }),
    },
  },
});
