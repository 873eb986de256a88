import { registerUploads } from '../../core/jobs/uploads.ts';
import { config } from '../../shared/config.ts';
import { apiHandler } from '../../shared/http/api-handler.ts';
import { apiWiring } from '../../shared/wiring/api.ts';
import { registerUploadsEndpoint } from './register-uploads.endpoint.ts';

export const handler = apiHandler(registerUploadsEndpoint, async ({ path, body, principal }) => {
  const api = apiWiring();
  const result = await registerUploads(
    {
      jobs: api.jobs,
      documents: api.jobs,
      storage: api.uploads,
      tokens: await api.uploadTokens(),
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
