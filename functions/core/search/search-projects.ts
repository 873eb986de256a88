import { isWellFormedId } from '../ids.ts';
import type { CursorCodec } from '../pagination/cursor.ts';
import { pageEnvelope } from '../pagination/page.ts';
import { type ProjectRecord, toPublicProject } from '../projects/model.ts';
import { fold } from './analyzer.ts';
import type {
  ProjectSearchQuery,
  ProjectSearchResponse,
  ProjectSearchResultItem,
  ProjectSearchWarning,
} from './model.ts';
import { queryEmbeddingText } from './query-expansion.ts';
import { embedQuery, type SearchDeps, SourceIndexNotReadyError, searchSources } from './search-sources.ts';

/** Projects whose sources one request searches (the most recently updated first); the rest get a warning. */
export const PROJECT_SEARCH_FANOUT = 25;
const CONCURRENCY = 6;
const SOURCE_MATCHES_PER_PROJECT = 3;

/** Lower-case, accents folded (as the analyzer folds them), split into words. */
const words = (text: string) =>
  fold(text)
    .toLowerCase()
    .match(/[a-z0-9]+/g) ?? [];

/** Every query word is a prefix of some word of the name. */
export function nameMatches(name: string, query: string): boolean {
  const nameWords = words(name);
  const queryWords = words(query);
  return (
    queryWords.length > 0 &&
    queryWords.every((word) => nameWords.some((candidate) => candidate.startsWith(word)))
  );
}

async function allProjects(
  deps: { projects: SearchDeps['projects'] },
  orgId: string,
): Promise<ProjectRecord[]> {
  const out: ProjectRecord[] = [];
  let position: unknown | null = null;
  do {
    const page = await deps.projects.list(orgId, { limit: 100, position });
    out.push(...page.items);
    position = page.nextPosition;
  } while (position !== null);
  return out;
}

/**
 * Search the organization's projects by name and by their sources.
 * Input: the caller's organization, the body (query, projectIds, source filters, limit, cursor).
 * Output: projects ordered by name match first, then by their best source match, with the reasons
 * and up to 3 source matches each; warnings for projects whose sources were not searched.
 * Steps: the organization's projects (another organization's ids never match: unknown ids answer a
 * `project_not_found` warning); name match (case- and accent-insensitive word prefixes); source
 * search (hybrid, the query's filters; a hit counts when it matched the query's words) over at most PROJECT_SEARCH_FANOUT ready projects with an
 * index, most recently updated first, 6 at a time; order; cut the page at the cursor's offset.
 */
export async function searchProjects(
  deps: SearchDeps & { cursors: CursorCodec },
  input: { orgId: string; search: ProjectSearchQuery },
): Promise<ProjectSearchResponse> {
  const { search } = input;
  const { cursor, limit, ...filters } = search;
  const scope = { endpoint: 'searchProjects', orgId: input.orgId, filters };
  const offset = cursor ? deps.cursors.decode<number>(cursor, scope) : 0;
  const warnings: ProjectSearchWarning[] = [];

  let projects = await allProjects(deps, input.orgId);
  if (search.projectIds) {
    const wanted = new Set(search.projectIds);
    const known = new Set(projects.map((project) => project.id));
    for (const id of wanted)
      if (!known.has(id) || !isWellFormedId('prj', id))
        warnings.push({
          code: 'project_not_found',
          projectId: id,
          message: 'No project with this id in the organization.',
        });
    projects = projects.filter((project) => wanted.has(project.id));
  }

  const searchable = projects
    .filter((project) => project.status === 'ready' && project.indexLocation)
    .sort((a, b) => b.updatedAt.localeCompare(a.updatedAt));
  const searched = searchable.slice(0, PROJECT_SEARCH_FANOUT);
  if (searchable.length > searched.length)
    warnings.push({
      code: 'source_search_truncated',
      projectId: null,
      message: `Sources of the ${PROJECT_SEARCH_FANOUT} most recently updated projects were searched; ${searchable.length - searched.length} more matched by name only. Narrow with projectIds.`,
    });

  const sourceMatches = new Map<
    string,
    { score: number; matches: ProjectSearchResultItem['sourceMatches'] }
  >();
  const { query, projectIds: _ids, ...sourceFilters } = filters;
  // One embedding of the query serves every project searched.
  const queryVector = searched.length > 0 ? embedQuery(deps.embedder, queryEmbeddingText(query)) : undefined;
  queryVector?.catch(() => undefined);
  let next = 0;
  const worker = async () => {
    while (next < searched.length) {
      const project = searched[next++] as ProjectRecord;
      try {
        const result = await searchSources(deps, {
          orgId: input.orgId,
          projectId: project.id,
          search: { query, mode: 'hybrid', maxHits: SOURCE_MATCHES_PER_PROJECT, ...sourceFilters },
          ...(queryVector ? { queryVector } : {}),
          project,
        });
        // Nearest neighbours exist for any query: a source qualifies a project only when it also
        // matched the query's words (the semantic ranking orders the matches, it does not make one).
        const hits = result.hits.filter((hit) => hit.matchedModes.includes('exact'));
        if (hits.length === 0) continue;
        sourceMatches.set(project.id, {
          score: hits[0]?.score ?? 0,
          matches: hits.map((hit) => ({
            fileName: hit.location.fileName,
            sheetNumber: hit.location.sheetNumber,
            pageNumber: hit.location.pageNumber,
            excerpt: hit.snippet,
            sourceCatalogUri: hit.sourceCatalogUri,
            score: hit.score,
          })),
        });
      } catch (error) {
        if (!(error instanceof SourceIndexNotReadyError)) throw error;
        warnings.push({
          code: 'source_index_not_ready',
          projectId: project.id,
          message: 'The source index of this project is being built; its sources were not searched.',
        });
      }
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));

  const items = projects
    .map((project) => {
      const byName = nameMatches(project.name, query);
      const bySource = sourceMatches.get(project.id);
      return { project, byName, bySource };
    })
    .filter(({ byName, bySource }) => byName || bySource)
    .sort(
      (a, b) =>
        Number(b.byName) - Number(a.byName) ||
        (b.bySource?.score ?? 0) - (a.bySource?.score ?? 0) ||
        a.project.name.localeCompare(b.project.name),
    )
    .map(
      ({ project, byName, bySource }): ProjectSearchResultItem => ({
        project: toPublicProject(project),
        matchReasons: [...(byName ? ['name' as const] : []), ...(bySource ? ['source' as const] : [])],
        sourceMatches: bySource?.matches ?? [],
      }),
    );

  const pageItems = items.slice(offset, offset + limit);
  const nextCursor = offset + limit < items.length ? deps.cursors.encode(scope, offset + limit) : null;
  return {
    query,
    projects: pageItems,
    ...pageEnvelope({
      total: items.length,
      limit,
      cursor: cursor ?? null,
      nextCursor,
      returnedCount: pageItems.length,
    }),
    warnings: warnings.sort(
      (a, b) => a.code.localeCompare(b.code) || String(a.projectId).localeCompare(String(b.projectId)),
    ),
  };
}
