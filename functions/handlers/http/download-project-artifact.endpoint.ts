import { artifactQuery, projectIdPath } from '../../shared/http/params.ts';
import { endpoint, http } from '../../shared/route-definition.ts';

export const downloadProjectArtifactEndpoint = endpoint({
  id: 'downloadProjectArtifact',
  method: 'GET',
  path: '/api/open/v1/projects/{projectId}/artifact',
  handler: http('download-project-artifact'),
  auth: 'apiKey',
  scope: 'artifacts:read',
  access: { table: 'read', signingKey: 'read', artifactsBucket: 'read' },
  summary: 'Download an artifact (region crop, section PDF) exposed by this project',
  request: { path: projectIdPath, query: artifactQuery },
  responses: {
    200: { description: 'The raw bytes (`application/octet-stream`).' },
    302: { description: 'Artifacts over 4 MiB: a redirect to a signed storage URL valid for 5 minutes.' },
    404: { description: '`artifact_not_found`: a path not issued by this project.' },
  },
});
