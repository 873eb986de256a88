import { readRegionTable, tableCsv } from '../../core/content/region-table.ts';
import { apiHandler } from '../../shared/http/api-handler.ts';
import { apiWiring } from '../../shared/wiring/api.ts';
import { getRegionTableEndpoint } from './get-region-table.endpoint.ts';

export const handler = apiHandler(getRegionTableEndpoint, async ({ path, query, principal }) => {
  const found = await readRegionTable(
    { projects: apiWiring().projects, content: apiWiring().content },
    {
      orgId: principal.orgId,
      projectId: path.projectId,
      regionId: path.regionId,
    },
  );
  if (query.format === 'csv') {
    const name = `${found.sheetNumber || `page-${found.pageNumber}`}-${found.label}`.replace(
      /[^\w.-]+/g,
      '_',
    );
    return {
      status: 200,
      body: new TextEncoder().encode(tableCsv(found.table)),
      headers: {
        'content-type': 'text/csv; charset=utf-8',
        'content-disposition': `attachment; filename="${name.slice(0, 100)}.csv"`,
        'cache-control': 'no-store',
      },
    };
  }
  return { status: 200, body: found };
});
