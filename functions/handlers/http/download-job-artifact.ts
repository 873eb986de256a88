import { downloadJobArtifact } from '../../core/content/downloads.ts';
import { artifactPaths, artifactStorage, jobStore } from '../../shared/container.ts';
import { apiHandler } from '../../shared/http/api-handler.ts';
import { downloadResponse } from '../../shared/http/downloads.ts';

export const handler = apiHandler('downloadJobArtifact', async ({ path, query, principal }) => {
  const download = await downloadJobArtifact(
    { jobs: jobStore(), artifacts: await artifactPaths(), storage: artifactStorage() },
    { orgId: principal.orgId, jobId: path.jobId, path: query.path },
  );
  return downloadResponse(download);
});
