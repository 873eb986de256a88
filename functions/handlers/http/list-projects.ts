import { listProjects } from '../../core/projects/queries.ts';
import { cursorCodec, jobStore, projectStore } from '../../shared/container.ts';
import { apiHandler } from '../../shared/http/api-handler.ts';

export const handler = apiHandler('listProjects', async ({ query, principal }) => {
  const result = await listProjects(
    { projects: projectStore(), cursors: await cursorCodec(), jobs: jobStore() },
    {
      orgId: principal.orgId,
      limit: query.limit,
      cursor: query.cursor,
      includeOverview: query.include === 'overview',
    },
  );
  return { status: 200, body: result };
});
