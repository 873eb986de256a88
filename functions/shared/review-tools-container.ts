import { requireProject } from '../core/projects/queries.ts';
import type { ToolDeps } from '../core/reviews/execution-steps.ts';
import { searchSources } from '../core/search/search-sources.ts';
import { projectStore } from './container.ts';
import { executionDeps } from './review-container.ts';
import { searchDeps, sourceIndex } from './search-container.ts';

/**
 * The tools step's deps: search and source reading on the execution's project. Apart from the other
 * steps' container, because it opens the project index (LanceDB, deployed as a layer).
 */
export function toolDeps(): ToolDeps {
  const tools: ToolDeps['tools'] = (execution) => {
    // The project's index location, read once per step (not once per source read).
    let location: Promise<string | null> | undefined;
    const indexLocation = () => {
      location ??= requireProject(projectStore(), execution.orgId, execution.projectId).then(
        (project) => project.indexLocation,
      );
      return location;
    };
    return {
      search: ({ query, modes, filters, fileName, maxHits }) =>
        searchSources(searchDeps(), {
          orgId: execution.orgId,
          projectId: execution.projectId,
          search: {
            query,
            mode: modes.length === 2 ? 'hybrid' : modes[0] === 'exact' ? 'exact' : 'semantic',
            maxHits,
            ...(fileName ? { fileName } : {}),
            ...(filters.entityTypes ? { entityTypes: filters.entityTypes } : {}),
          },
          ...(filters.fileIds ? { fileIds: filters.fileIds } : {}),
        }),
      passages: async (uri) => {
        const at = await indexLocation();
        return at ? sourceIndex().passagesOf(at, uri) : [];
      },
    };
  };
  // Keeps the execution deps' getters (each adapter is still built on first use).
  return Object.defineProperty(executionDeps(), 'tools', { enumerable: true, value: tools }) as ToolDeps;
}
