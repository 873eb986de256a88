import { getJob } from '../../core/jobs/jobs.ts';
import { apiHandler } from '../../shared/http/api-handler.ts';
import { apiWiring } from '../../shared/wiring/api.ts';
import { getJobEndpoint } from './get-job.endpoint.ts';

export const handler = apiHandler(getJobEndpoint, async ({ path, principal }) => {
  const job = await getJob({ jobs: apiWiring().jobs }, { orgId: principal.orgId, jobId: path.jobId });
  return { status: 200, body: { job } };
});
