import { listSpecifications } from '../../core/content/queries.ts';
import { apiHandler } from '../../shared/http/api-handler.ts';
import { defined } from '../../shared/http/content-listing.ts';
import { apiWiring } from '../../shared/wiring/api.ts';
import { listSpecificationsEndpoint } from './list-specifications.endpoint.ts';

export const handler = apiHandler(listSpecificationsEndpoint, async ({ path, query, principal }) => {
  const { limit, cursor, compact, ...filters } = query;
  const result = await listSpecifications(await apiWiring().listings(), {
    orgId: principal.orgId,
    projectId: path.projectId,
    filter: defined(filters),
    limit,
    cursor,
    compact: compact ?? false,
  });
  return { status: 200, body: result };
});
