import { z } from 'zod';
import { BillingSchema, ProjectSchema } from '../../core/projects/model.ts';
import { CreateProjectBodySchema } from '../../shared/http/request-bodies.ts';
import { endpoint, http } from '../../shared/route-definition.ts';

export const createProjectEndpoint = endpoint({
  id: 'createProject',
  method: 'POST',
  path: '/api/open/v1/projects',
  handler: http('create-project'),
  auth: 'apiKey',
  scope: 'projects:write',
  access: { table: 'readwrite', provisionStateMachine: 'start' },
  summary: 'Create a project (charges credits; provisioned asynchronously)',
  request: { body: CreateProjectBodySchema },
  responses: {
    202: {
      description: 'Project accepted; provisioning runs in the background.',
      schema: z.object({ project: ProjectSchema, billing: BillingSchema }),
    },
    402: { description: '`insufficient_credits`, with `requiredCredits` and `availableCredits`.' },
    409: {
      description:
        '`project_name_conflict`: the organization already has a project of that name (ignoring case).',
    },
  },
});
