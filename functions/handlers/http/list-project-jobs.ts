import { listJobs } from '../../core/jobs/jobs.ts';
import { apiHandler } from '../../shared/http/api-handler.ts';
import { apiWiring } from '../../shared/wiring/api.ts';
import { listProjectJobsEndpoint } from './list-project-jobs.endpoint.ts';

export const handler = apiHandler(listProjectJobsEndpoint, async ({ path, query, principal }) => {
  const result = await listJobs(
    { jobs: apiWiring().jobs, projects: apiWiring().projects, cursors: await apiWiring().cursors() },
    {
      orgId: principal.orgId,
      endpoint: 'listProjectJobs',
      filter: {
        projectId: path.projectId,
        ...(query.status ? { status: query.status } : {}),
        ...(query.activeOnly ? { activeOnly: true } : {}),
      },
      limit: query.limit,
      cursor: query.cursor,
    },
  );
  return { status: 200, body: result };
});
