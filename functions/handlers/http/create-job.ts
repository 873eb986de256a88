import { createJob } from '../../core/jobs/jobs.ts';
import { apiHandler } from '../../shared/http/api-handler.ts';
import { apiWiring } from '../../shared/wiring/api.ts';
import { createJobEndpoint } from './create-job.endpoint.ts';

export const handler = apiHandler(createJobEndpoint, async ({ path, body, principal }) => {
  const job = await createJob(
    { projects: apiWiring().projects, jobs: apiWiring().jobs },
    { orgId: principal.orgId, projectId: path.projectId, ...body },
  );
  return { status: 201, body: { job } };
});
