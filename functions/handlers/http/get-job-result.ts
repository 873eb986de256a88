import { getJobResult } from '../../core/content/downloads.ts';
import { apiHandler } from '../../shared/http/api-handler.ts';
import { apiWiring } from '../../shared/wiring/api.ts';
import { getJobResultEndpoint } from './get-job-result.endpoint.ts';

export const handler = apiHandler(getJobResultEndpoint, async ({ path, query, principal }) => {
  const api = apiWiring();
  const result = await getJobResult(
    {
      jobs: api.jobs,
      artifacts: await api.artifactPaths(),
      storage: api.downloads,
      cursors: await api.cursors(),
    },
    {
      orgId: principal.orgId,
      jobId: path.jobId,
      limit: query.limit,
      ...(query.cursor ? { cursor: query.cursor } : {}),
    },
  );
  return { status: 200, body: result };
});
