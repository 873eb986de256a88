import { listDocuments } from '../../core/content/queries.ts';
import { apiHandler } from '../../shared/http/api-handler.ts';
import { contentDeps, defined } from '../../shared/http/content-deps.ts';

export const handler = apiHandler('listDocuments', async ({ path, query, principal }) => {
  const { limit, cursor, ...filters } = query;
  const result = await listDocuments(await contentDeps(), {
    orgId: principal.orgId,
    projectId: path.projectId,
    filter: defined(filters),
    limit,
    cursor,
    compact: true,
  });
  return { status: 200, body: result };
});
