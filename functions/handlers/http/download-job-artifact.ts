import { downloadJobArtifact } from '../../core/content/downloads.ts';
import { apiHandler } from '../../shared/http/api-handler.ts';
import { downloadResponse } from '../../shared/http/downloads.ts';
import { apiWiring } from '../../shared/wiring/api.ts';
import { downloadJobArtifactEndpoint } from './download-job-artifact.endpoint.ts';

export const handler = apiHandler(downloadJobArtifactEndpoint, async ({ path, query, principal }) => {
  const download = await downloadJobArtifact(
    { jobs: apiWiring().jobs, artifacts: await apiWiring().artifactPaths(), storage: apiWiring().downloads },
    { orgId: principal.orgId, jobId: path.jobId, path: query.path },
  );
  return downloadResponse(download);
});
