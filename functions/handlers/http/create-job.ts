import { createJob } from '../../core/jobs/jobs.ts';
import { jobStore, projectStore } from '../../shared/container.ts';
import { apiHandler } from '../../shared/http/api-handler.ts';

export const handler = apiHandler('createJob', async ({ path, body, principal }) => {
  const job = await createJob(
    { projects: projectStore(), jobs: jobStore() },
    { orgId: principal.orgId, projectId: path.projectId, ...body },
  );
  return { status: 201, body: { job } };
});
