import { reconcileSourceIndex } from '../../core/search/reconcile.ts';
import { apiHandler } from '../../shared/http/api-handler.ts';
import { searchWiring } from '../../shared/wiring/search.ts';
import { reconcileSourceIndexEndpoint } from './reconcile-source-index.endpoint.ts';

export const handler = apiHandler(reconcileSourceIndexEndpoint, async ({ path, body, principal }) => {
  const { status, ...result } = await reconcileSourceIndex(searchWiring(), {
    orgId: principal.orgId,
    projectId: path.projectId,
    limit: body.limit,
  });
  return { status, body: result };
});
