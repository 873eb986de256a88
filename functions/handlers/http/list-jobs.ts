import { listJobs } from '../../core/jobs/jobs.ts';
import { cursorCodec, jobStore, projectStore } from '../../shared/container.ts';
import { apiHandler } from '../../shared/http/api-handler.ts';

export const handler = apiHandler('listJobs', async ({ query, principal }) => {
  const result = await listJobs(
    { jobs: jobStore(), projects: projectStore(), cursors: await cursorCodec() },
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
