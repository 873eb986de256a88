import { listSpecificationSections } from '../../core/content/queries.ts';
import { apiHandler } from '../../shared/http/api-handler.ts';
import { defined } from '../../shared/http/content-listing.ts';
import { apiWiring } from '../../shared/wiring/api.ts';
import { listSpecificationSectionsEndpoint } from './list-specification-sections.endpoint.ts';

export const handler = apiHandler(listSpecificationSectionsEndpoint, async ({ path, query, principal }) => {
  const { limit, cursor, compact, ...filters } = query;
  const result = await listSpecificationSections(await apiWiring().listings(), {
    orgId: principal.orgId,
    projectId: path.projectId,
    specId: path.specId,
    filter: defined(filters),
    limit,
    cursor,
    compact: compact ?? false,
  });
  return { status: 200, body: result };
});
