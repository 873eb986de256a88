import { completeUploads } from '../../core/jobs/complete-uploads.ts';
import { jobStore, processingStarter, uploadStorage, uploadTokens } from '../../shared/container.ts';
import { apiHandler } from '../../shared/http/api-handler.ts';

export const handler = apiHandler('completeUploads', async ({ path, body, principal }) => {
  const result = await completeUploads(
    {
      jobs: jobStore(),
      storage: uploadStorage(),
      tokens: await uploadTokens(),
      processing: processingStarter(),
    },
    { orgId: principal.orgId, jobId: path.jobId, uploads: body },
  );
  return { status: 200, body: result };
});
