import { listJobFiles } from '../../core/jobs/jobs.ts';
import { apiHandler } from '../../shared/http/api-handler.ts';
import { apiWiring } from '../../shared/wiring/api.ts';
import { listJobFilesEndpoint } from './list-job-files.endpoint.ts';

export const handler = apiHandler(listJobFilesEndpoint, async ({ path, query, principal }) => {
  const result = await listJobFiles(
    { jobs: apiWiring().jobs, cursors: await apiWiring().cursors() },
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
