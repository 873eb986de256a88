import { normalizeProjectRegions } from '../../core/content/normalize-regions.ts';
import { normalizeRegionsDeps } from '../../shared/container.ts';
import { apiHandler } from '../../shared/http/api-handler.ts';

export const handler = apiHandler('normalizeRegions', async ({ path, body, principal }) => {
  const { status, ...result } = await normalizeProjectRegions(normalizeRegionsDeps(), {
    orgId: principal.orgId,
    projectId: path.projectId,
    mode: body.mode,
    ...(body.documentIds ? { documentIds: body.documentIds } : {}),
  });
  return { status, body: result };
});
