import { getJob } from '../../core/jobs/jobs.ts';
import { jobStore } from '../../shared/container.ts';
import { apiHandler } from '../../shared/http/api-handler.ts';

export const handler = apiHandler('getJob', async ({ path, principal }) => {
  const job = await getJob({ jobs: jobStore() }, { orgId: principal.orgId, jobId: path.jobId });
  return { status: 200, body: { job } };
});
