import { downloadProjectArtifact } from '../../core/content/downloads.ts';
import { apiHandler } from '../../shared/http/api-handler.ts';
import { downloadResponse } from '../../shared/http/downloads.ts';
import { apiWiring } from '../../shared/wiring/api.ts';
import { downloadProjectArtifactEndpoint } from './download-project-artifact.endpoint.ts';

export const handler = apiHandler(downloadProjectArtifactEndpoint, async ({ path, query, principal }) => {
  const api = apiWiring();
  const download = await downloadProjectArtifact(
    {
      projects: api.projects,
      artifacts: await api.artifactPaths(),
      storage: api.downloads,
    },
    { orgId: principal.orgId, projectId: path.projectId, path: query.path },
  );
  return downloadResponse(download);
});
