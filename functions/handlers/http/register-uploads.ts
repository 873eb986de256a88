import { registerUploads } from '../../core/jobs/uploads.ts';
import { config } from '../../shared/config.ts';
import { jobStore, uploadStorage, uploadTokens } from '../../shared/container.ts';
import { apiHandler } from '../../shared/http/api-handler.ts';

export const handler = apiHandler('registerUploads', async ({ path, body, principal }) => {
  const result = await registerUploads(
    {
      jobs: jobStore(),
      documents: jobStore(),
      storage: uploadStorage(),
      tokens: await uploadTokens(),
    },
    {
      orgId: principal.orgId,
      jobId: path.jobId,
      registration: body,
      settings: {
        multipartThresholdBytes: config.MULTIPART_THRESHOLD_BYTES,
        partSizeBytes: config.MULTIPART_PART_SIZE_BYTES,
        urlTtlSeconds: config.UPLOAD_URL_TTL_SECONDS,
      },
    },
  );
  return { status: 200, body: result };
});
