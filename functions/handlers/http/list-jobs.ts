import { listJobs } from '../../core/jobs/jobs.ts';
import { apiHandler } from '../../shared/http/api-handler.ts';
import { apiWiring } from '../../shared/wiring/api.ts';
import { listJobsEndpoint } from './list-jobs.endpoint.ts';

export const handler = apiHandler(listJobsEndpoint, async ({ query, principal }) => {
  const result = await listJobs(
    { jobs: apiWiring().jobs, projects: apiWiring().projects, cursors: await apiWiring().cursors() },
    {
      orgId: principal.orgId,
      endpoint: 'listJobs',
      filter: {
        ...(query.projectId ? { projectId: query.projectId } : {}),
        ...(query.status ? { status: query.status } : {}),
        ...(query.activeOnly ? { activeOnly: true } : {}),
      },
      limit: query.limit,
      cursor: query.cursor,
    },
  );
  return { status: 200, body: result };
});
