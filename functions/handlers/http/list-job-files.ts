import { listJobFiles } from '../../core/jobs/jobs.ts';
import { cursorCodec, jobStore } from '../../shared/container.ts';
import { apiHandler } from '../../shared/http/api-handler.ts';

export const handler = apiHandler('listJobFiles', async ({ path, query, principal }) => {
  const result = await listJobFiles(
    { jobs: jobStore(), cursors: await cursorCodec() },
    {
      orgId: principal.orgId,
      jobId: path.jobId,
      limit: query.limit,
      cursor: query.cursor,
      ...(query.status ? { status: query.status } : {}),
    },
  );
  return { status: 200, body: result };
});
