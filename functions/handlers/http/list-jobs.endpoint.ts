import { z } from 'zod';
import {
  booleanParam,
  cursorParam,
  JobListSchema,
  JobStatusParam,
  limitParam,
} from '../../shared/http/params.ts';
import { endpoint, http } from '../../shared/route-definition.ts';

/** `projectId`/`project_id` and `activeOnly`/`active_only` are both accepted, as the spec says. */
const JobListQuerySchema = z
  .object({
    limit: limitParam(100, 20),
    cursor: cursorParam,
    projectId: z.string().max(64).optional(),
    project_id: z.string().max(64).optional(),
    status: JobStatusParam.optional(),
    activeOnly: booleanParam.optional(),
    active_only: booleanParam.optional(),
  })
  .strict()
  .refine((query) => !(query.projectId && query.project_id && query.projectId !== query.project_id), {
    message: 'projectId and project_id disagree',
    path: ['project_id'],
  })
  .refine(
    (query) =>
      !(
        query.activeOnly !== undefined &&
        query.active_only !== undefined &&
        query.activeOnly !== query.active_only
      ),
    {
      message: 'activeOnly and active_only disagree',
      path: ['active_only'],
    },
  )
  .transform(({ project_id, active_only, ...rest }) => ({
    ...rest,
    projectId: rest.projectId ?? project_id,
    activeOnly: rest.activeOnly ?? active_only,
  }));

export const listJobsEndpoint = endpoint({
  id: 'listJobs',
  method: 'GET',
  path: '/api/open/v1/jobs',
  handler: http('list-jobs'),
  auth: 'apiKey',
  scope: 'jobs:read',
  access: { table: 'read', signingKey: 'read' },
  summary: 'List the jobs of the organization, newest first',
  request: { query: JobListQuerySchema },
  responses: { 200: { description: 'Jobs of the organization, newest first.', schema: JobListSchema } },
});
