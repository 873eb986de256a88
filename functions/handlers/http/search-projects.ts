import { searchProjects } from '../../core/search/search-projects.ts';
import { apiHandler } from '../../shared/http/api-handler.ts';
import { searchWiring } from '../../shared/wiring/search.ts';
import { searchProjectsEndpoint } from './search-projects.endpoint.ts';

export const handler = apiHandler(searchProjectsEndpoint, async ({ body, principal }) => {
  const search = searchWiring();
  const deps = {
    projects: search.projects,
    states: search.states,
    index: search.index,
    embedder: search.embedder,
    reviews: search.reviews,
    jobs: search.jobs,
    fusion: search.fusion,
    cursors: await search.cursors(),
  };
  return { status: 200, body: await searchProjects(deps, { orgId: principal.orgId, search: body }) };
});
