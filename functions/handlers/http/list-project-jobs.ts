import { listJobs } from '../../core/jobs/jobs.ts';
import { cursorCodec, jobStore, projectStore } from '../../shared/container.ts';
import { apiHandler } from '../../shared/http/api-handler.ts';

export const handler = apiHandler('listProjectJobs', async ({ path, query, principal }) => {
  const result = await listJobs(
    { jobs: jobStore(), projects: projectStore(), cursors: await cursorCodec() },
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
