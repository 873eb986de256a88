import { searchSources } from '../../core/search/search-sources.ts';
import { config } from '../../shared/config.ts';
import { projectStore } from '../../shared/container.ts';
import { apiHandler } from '../../shared/http/api-handler.ts';
import { embedder, searchIndexStates, sheetKey, sourceIndex } from '../../shared/search-container.ts';

export const handler = apiHandler('searchSources', async ({ path, body, principal }) => ({
  status: 200,
  body: await searchSources(
    {
      projects: projectStore(),
      states: searchIndexStates(),
      index: sourceIndex(),
      embedder: embedder(),
      sheetKey,
      fusion: {
        lexicalK: config.SEARCH_LEXICAL_RRF_K,
        semanticK: config.SEARCH_SEMANTIC_RRF_K,
        semanticWeight: config.SEARCH_SEMANTIC_WEIGHT,
      },
    },
    { orgId: principal.orgId, projectId: path.projectId, body },
  ),
}));
