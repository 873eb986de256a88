import { normalizeProjectRegions } from '../../core/content/normalize-regions.ts';
import { apiHandler } from '../../shared/http/api-handler.ts';
import { apiWiring } from '../../shared/wiring/api.ts';
import { normalizeRegionsEndpoint } from './normalize-regions.endpoint.ts';

export const handler = apiHandler(normalizeRegionsEndpoint, async ({ path, body, principal }) => {
  const { status, ...result } = await normalizeProjectRegions(apiWiring().normalizeRegions, {
    orgId: principal.orgId,
    projectId: path.projectId,
    mode: body.mode,
    ...(body.documentIds ? { documentIds: body.documentIds } : {}),
  });
  return { status, body: result };
});
