import { getJobResult } from '../../core/content/downloads.ts';
import { artifactPaths, artifactStorage, cursorCodec, jobStore } from '../../shared/container.ts';
import { apiHandler } from '../../shared/http/api-handler.ts';

export const handler = apiHandler('getJobResult', async ({ path, query, principal }) => {
  const result = await getJobResult(
    {
      jobs: jobStore(),
      artifacts: await artifactPaths(),
      storage: artifactStorage(),
      cursors: await cursorCodec(),
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
