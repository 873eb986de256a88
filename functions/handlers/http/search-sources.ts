import { recordMetric } from '../../adapters/cloudwatch/metrics.ts';
import { searchSources } from '../../core/search/search-sources.ts';
import { apiHandler } from '../../shared/http/api-handler.ts';
import { searchWiring } from '../../shared/wiring/search.ts';
import { searchSourcesEndpoint } from './search-sources.endpoint.ts';

export const handler = apiHandler(searchSourcesEndpoint, async ({ path, body, principal }) => {
  const started = performance.now();
  const result = await searchSources(searchWiring(), {
    orgId: principal.orgId,
    projectId: path.projectId,
    search: body,
  });
  recordMetric('SearchLatency', performance.now() - started);
  return { status: 200, body: result };
});
