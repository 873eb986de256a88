import { downloadProjectArtifact } from '../../core/content/downloads.ts';
import { artifactPaths, artifactStorage, projectStore } from '../../shared/container.ts';
import { apiHandler } from '../../shared/http/api-handler.ts';
import { downloadResponse } from '../../shared/http/downloads.ts';

export const handler = apiHandler('downloadProjectArtifact', async ({ path, query, principal }) => {
  const download = await downloadProjectArtifact(
    { projects: projectStore(), artifacts: await artifactPaths(), storage: artifactStorage() },
    { orgId: principal.orgId, projectId: path.projectId, path: query.path },
  );
  return downloadResponse(download);
});
