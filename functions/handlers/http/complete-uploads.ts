import { completeUploads } from '../../core/jobs/complete-uploads.ts';
import { apiHandler } from '../../shared/http/api-handler.ts';
import { apiWiring } from '../../shared/wiring/api.ts';
import { completeUploadsEndpoint } from './complete-uploads.endpoint.ts';

export const handler = apiHandler(completeUploadsEndpoint, async ({ path, body, principal }) => {
  const api = apiWiring();
  const result = await completeUploads(
    {
      jobs: api.jobs,
      storage: api.uploads,
      tokens: await api.uploadTokens(),
      processing: api.processing,
    },
    { orgId: principal.orgId, jobId: path.jobId, uploads: body },
  );
  return { status: 200, body: result };
});
