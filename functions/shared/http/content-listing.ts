import type { ListInput } from '../../core/content/queries.ts';
import type { listDocumentsEndpoint } from '../../handlers/http/list-documents.endpoint.ts';
import type { listSheetsEndpoint } from '../../handlers/http/list-sheets.endpoint.ts';
import { type ApiWiring, apiWiring } from '../wiring/api.ts';
import { apiHandler } from './api-handler.ts';

/** Drops unset query members so they never reach filters (or cursor scopes) as `undefined`. */
export function defined<T extends Record<string, unknown>>(
  value: T,
): { [K in keyof T]?: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(value).filter(([, item]) => item !== undefined)) as never;
}

type ContentDeps = Awaited<ReturnType<ApiWiring['listings']>>;

/**
 * The handler of a content listing whose query is paging plus filters (no `compact`: these entities
 * carry no artifacts): parse, run the use case, answer 200.
 */
export function filteredListing<
  E extends typeof listSheetsEndpoint | typeof listDocumentsEndpoint,
  F extends object,
>(endpoint: E, list: (deps: ContentDeps, input: ListInput<F>) => Promise<unknown>) {
  return apiHandler(endpoint, async ({ path, query, principal }) => {
    const { limit, cursor, ...filters } = query;
    const result = await list(await apiWiring().listings(), {
      orgId: principal.orgId,
      projectId: path.projectId,
      filter: defined(filters) as F,
      limit,
      cursor,
      compact: true,
    });
    return { status: 200, body: result };
  });
}
