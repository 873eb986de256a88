import { getJobResult } from '../../core/content/downloads.ts';
import { artifactPaths, artifactStorage, jobStore } from '../../shared/container.ts';
import { apiHandler } from '../../shared/http/api-handler.ts';

export const handler = apiHandler('getJobResult', async ({ path, principal }) => {
  const result = await getJobResult(
    { jobs: jobStore(), artifacts: await artifactPaths(), storage: artifactStorage() },
    { orgId: principal.orgId, jobId: path.jobId },
  );
  return { status: 200, body: result };
});
