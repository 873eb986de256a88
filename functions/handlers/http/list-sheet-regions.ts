import { listSheetRegions } from '../../core/content/queries.ts';
import { apiHandler } from '../../shared/http/api-handler.ts';
import { defined } from '../../shared/http/content-listing.ts';
import { apiWiring } from '../../shared/wiring/api.ts';
import { listSheetRegionsEndpoint } from './list-sheet-regions.endpoint.ts';

export const handler = apiHandler(listSheetRegionsEndpoint, async ({ path, query, principal }) => {
  const { limit, cursor, compact, ...filters } = query;
  const result = await listSheetRegions(await apiWiring().listings(), {
    orgId: principal.orgId,
    projectId: path.projectId,
    sheetId: path.sheetId,
    filter: defined(filters),
    limit,
    cursor,
    compact: compact ?? false,
  });
  return { status: 200, body: result };
});
