import { artifactQuery, jobIdPath } from '../../shared/http/params.ts';
import { endpoint, http } from '../../shared/route-definition.ts';

export const downloadJobArtifactEndpoint = endpoint({
  id: 'downloadJobArtifact',
  method: 'GET',
  path: '/api/open/v1/jobs/{jobId}/artifact',
  handler: http('download-job-artifact'),
  auth: 'apiKey',
  scope: 'artifacts:read',
  access: { table: 'read', signingKey: 'read', artifactsBucket: 'read' },
  summary: "Download an artifact listed in the job's result",
  request: { path: jobIdPath, query: artifactQuery },
  responses: {
    200: { description: 'The raw bytes (`application/octet-stream`, with Content-Disposition).' },
    302: { description: 'Artifacts over 4 MiB: a redirect to a signed storage URL valid for 5 minutes.' },
    404: { description: "`artifact_not_found`: the path is not in this job's result." },
    409: { description: '`job_result_not_ready`.' },
  },
});
