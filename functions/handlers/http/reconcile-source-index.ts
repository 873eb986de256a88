import { reconcileSourceIndex } from '../../core/search/reconcile.ts';
import { apiHandler } from '../../shared/http/api-handler.ts';
import { reconcileDeps } from '../../shared/search-container.ts';

export const handler = apiHandler('reconcileSourceIndex', async ({ path, body, principal }) => {
  const { status, ...result } = await reconcileSourceIndex(reconcileDeps(), {
    orgId: principal.orgId,
    projectId: path.projectId,
    limit: body.limit,
  });
  return { status, body: result };
});
