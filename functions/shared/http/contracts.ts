import { z } from 'zod';
import { ApiKeySchema, CreateApiKeyBodySchema } from '../../core/auth/model.ts';
import {
  BillingSchema,
  CreateProjectBodySchema,
  ProjectOverviewSchema,
  ProjectSchema,
} from '../../core/projects/model.ts';
import type { RouteId } from '../routes.ts';
import { booleanParam, cursorParam, limitParam } from './params.ts';

/**
 * Request and response schemas of every route. Handlers validate with them and the OpenAPI
 * document is generated from them, so the documentation cannot drift from the code.
 */
export interface Contract {
  body?: z.ZodType;
  query?: z.ZodType;
  path?: z.ZodType;
  responses: Record<number, { description: string; schema?: z.ZodType }>;
}

export const PageEnvelopeSchema = z.object({
  total: z.number().int().describe('Number of matching items across all pages.'),
  limit: z.number().int(),
  cursor: z.string().nullable(),
  nextCursor: z.string().nullable().describe('Null on the last page.'),
  returnedCount: z.number().int(),
  hasMore: z.boolean(),
  pageInfo: z.object({
    startCursor: z.string().nullable(),
    endCursor: z.string().nullable(),
    hasPreviousPage: z.boolean(),
    hasNextPage: z.boolean(),
  }),
});

const projectIdPath = z.object({ projectId: z.string() });

export const CONTRACTS = {
  createProject: {
    body: CreateProjectBodySchema,
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
  },
  listProjects: {
    query: z
      .object({
        limit: limitParam(100, 25),
        cursor: cursorParam,
        include: z.enum(['overview']).optional().describe("`overview` adds each project's ProjectOverview."),
      })
      .strict(),
    responses: {
      200: {
        description: 'Projects, newest first.',
        schema: PageEnvelopeSchema.extend({
          projects: z.array(ProjectSchema.extend({ overview: ProjectOverviewSchema.optional() })),
        }),
      },
    },
  },
  getProject: {
    path: projectIdPath,
    responses: {
      200: { description: 'The project.', schema: z.object({ project: ProjectSchema }) },
      404: { description: "`project_not_found` (also for another organization's project)." },
    },
  },
  getProjectOverview: {
    path: projectIdPath,
    responses: {
      200: {
        description: 'Project and overview.',
        schema: z.object({ project: ProjectSchema, overview: ProjectOverviewSchema }),
      },
      404: { description: '`project_not_found`.' },
    },
  },
  createApiKey: {
    body: CreateApiKeyBodySchema,
    responses: {
      201: {
        description: 'The key and its secret. The secret is shown only here.',
        schema: z.object({ key: ApiKeySchema, secret: z.string().describe('Bearer token; store it now.') }),
      },
    },
  },
  listApiKeys: {
    query: z.object({ limit: limitParam(100, 50), cursor: cursorParam }).strict(),
    responses: {
      200: {
        description: 'Keys of the organization, newest first.',
        schema: PageEnvelopeSchema.extend({ keys: z.array(ApiKeySchema) }),
      },
    },
  },
  revokeApiKey: {
    path: z.object({ keyId: z.string() }),
    responses: {
      200: { description: 'The revoked key.', schema: z.object({ key: ApiKeySchema }) },
      404: { description: '`api_key_not_found`.' },
    },
  },
} as const satisfies Record<RouteId, Contract>;

export type Contracts = typeof CONTRACTS;
export { booleanParam };
