import { listRegions } from '../../core/content/queries.ts';
import { apiHandler } from '../../shared/http/api-handler.ts';
import { defined } from '../../shared/http/content-listing.ts';
import { apiWiring } from '../../shared/wiring/api.ts';
import { listRegionsEndpoint } from './list-regions.endpoint.ts';

export const handler = apiHandler(listRegionsEndpoint, async ({ path, query, principal }) => {
  const { limit, cursor, compact, sheets, sheetId, ...filters } = query;
  const sheetIds = sheetId ? [...new Set([...(sheets ?? []), sheetId])] : sheets;
  const result = await listRegions(await apiWiring().listings(), {
    orgId: principal.orgId,
    projectId: path.projectId,
    filter: defined({ ...filters, sheetIds }),
    limit,
    cursor,
    compact: compact ?? false,
  });
  return { status: 200, body: result };
});
