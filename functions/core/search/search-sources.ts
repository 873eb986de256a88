import { ConflictError, NotFoundError } from '../errors.ts';
import type { ProjectRecord } from '../projects/model.ts';
import type { LatestJobLookup, ProjectStore } from '../projects/ports.ts';
import { requireProject } from '../projects/queries.ts';
import { analyzeQuery, embeddingWords, isStopWord, sheetKey } from './analyzer.ts';
import { type DefinedExpansions, definedExpansions, definedTermsFor } from './defined-terms.ts';
import { feedbackTerms } from './feedback.ts';
import { type FusedSource, fuseRankings, rerankFused, reweighByCoverage } from './fusion.ts';
import type { SourceSearchHit, SourceSearchQuery, SourceSearchResponse } from './model.ts';
import { namedFiles } from './named-files.ts';
import type {
  Embedder,
  IndexHit,
  LexicalQuery,
  Reranker,
  ReviewSourceLookup,
  SearchFilter,
  SearchIndexStateStore,
  SearchLog,
  SourceIndex,
} from './ports.ts';
import { expansionsOf, queryEmbeddingText, specificPhrases, tradeTerms } from './query-expansion.ts';
import {
  confidenceOf,
  coverageOf,
  fileNameTokens,
  passageTokens,
  queryUnits,
  unitWeights,
} from './relevance.ts';

export class SourceIndexNotReadyError extends ConflictError {
  constructor() {
    super(
      'source_index_not_ready',
      'The source index of this project is being built; retry in 5 to 10 seconds.',
      { retryAfterSeconds: 5 },
    );
  }
}

export class ReviewNotFoundError extends NotFoundError {
  constructor() {
    super('open_api_review_not_found', 'No review with this id in the project.');
  }
}

/** Job statuses whose files are still being read (uploads ended, results not in yet). */
const PROCESSING_STATUSES: ReadonlySet<string> = new Set(['preflighting', 'processing']);

export interface SearchDeps {
  /** The projects searched and listed (a function's cache of ready projects: `cachedReadyProjects`). */
  projects: Pick<ProjectStore, 'get' | 'list'>;
  states: SearchIndexStateStore;
  index: SourceIndex;
  embedder: Embedder;
  /** The sources of a review (for `reviewId`). */
  reviews: ReviewSourceLookup;
  /** The project's latest job: one still processing adds documents the index does not list yet. */
  jobs: LatestJobLookup;
  /** A rerank stage after fusion (`SEARCH_RERANK`), of the first `fusion.rerankDepth` sources; none: off. */
  reranker?: Reranker | null;
  /** Where a failed rerank stage is told (the search answers in the fused order). */
  log?: Pick<SearchLog, 'error'>;
  /**
   * Reciprocal rank fusion: a source at rank r of a ranking adds weight / (k + r). The rankings: the
   * lexical one (weight 1), the semantic one, and, with the lexical k and `namedWeight`, the lexical
   * rankings within what the query names: the files (`namedFiles`), and the sources whose heading
   * carries a sheet or section number of the query.
   */
  fusion: {
    lexicalK: number;
    semanticK: number;
    semanticWeight: number;
    namedWeight: number;
    /** Weight of the expansion terms inside the lexical ranking (`expandQuery`). */
    expansionWeight: number;
    /** Most pairs of the query's consecutive words searched as optional phrases (0: none). */
    proximityPairs: number;
    /** Most words of a question's best passages searched again beside it (`feedbackTerms`; 0: none). */
    feedbackTerms?: number;
    /** Sources the reranker reorders (`SEARCH_RERANK_DEPTH`). */
    rerankDepth?: number;
    /** How much a fused source's coverage of the query raises its score (`reweighByCoverage`; 0: off). */
    coverageWeight?: number;
    /** Fused sources reweighed by their coverage. */
    coverageDepth?: number;
  };
}

/** The embedding of a query. */
export async function embedQuery(embedder: Embedder, query: string): Promise<number[]> {
  const [vector] = await embedder.embed([query], 'query');
  return vector as number[];
}

/** `A-101` → `a101`, `CR-05` → `cr5`: a printed sheet number's letters and number, as identifiers compare. */
const identifierKey = (token: string) =>
  token
    .toLowerCase()
    .replace(/[^a-z0-9.]/g, '')
    .replace(/\.$/, '')
    .replace(/^([a-z]*)0+(?=\d)/, '$1');

/**
 * Matched words of the best window of a passage, wrapped in ** **: the query's words (and the forms its
 * expansions and the project's definitions give them) and the identifiers it writes, however printed.
 */
export function snippetOf(
  text: string,
  queryWords: string[],
  width = 240,
  identifiers: string[] = [],
): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  const words = queryWords
    .filter((word) => word.length > 1 && !isStopWord(word))
    .map((word) => word.toLowerCase());
  const identified = new Set(identifiers);
  if (flat.length === 0) return '';
  // A passage word matches a query word it starts with (`uploaded` for `upload`) or that starts with it (`GWB`
  // for `gwbs`); a stop word of the passage never does (`to` is the start of `tow`).
  const isMatch = (token: string) => {
    const lower = token.toLowerCase().replace(/[^a-z0-9]/g, '');
    return (
      (lower.length > 1 &&
        !isStopWord(lower) &&
        words.some((word) => lower.startsWith(word) || word.startsWith(lower))) ||
      (identified.size > 0 && identified.has(identifierKey(token)))
    );
  };
  const tokens = flat.split(' ');
  let best = 0;
  let bestScore = -1;
  for (let start = 0; start < tokens.length; start += 4) {
    let length = 0;
    let score = 0;
    for (let i = start; i < tokens.length && length < width; i++) {
      length += (tokens[i] as string).length + 1;
      if (isMatch(tokens[i] as string)) score++;
    }
    if (score > bestScore) {
      bestScore = score;
      best = start;
    }
  }
  const out: string[] = [];
  let length = 0;
  for (let i = best; i < tokens.length && length < width; i++) {
    const token = tokens[i] as string;
    length += token.length + 1;
    out.push(isMatch(token) ? `**${token}**` : token);
  }
  return `${best > 0 ? '… ' : ''}${out.join(' ')}${best + out.length < tokens.length ? ' …' : ''}`;
}

/**
 * The query's consecutive words (stems, numbers and abbreviation tokens left out), in pairs: a passage
 * that keeps the query's words together (`curb ramp`, `work plan`) ranks above one that has them apart.
 */
export function wordPairs(terms: string[]): string[][] {
  const words = terms.filter((term) => /^[a-z]{2,}$/.test(term));
  return words.slice(1).map((word, index) => [words[index] as string, word]);
}

/**
 * The lexical queries of a search: the query's terms with the trade terms of its plain words (searched
 * at `expansionWeight`), and the sheet and section numbers it writes beside other words (`how do the
 * versions of 31 23 34 differ on backfill`), whose sources are ranked by the whole query as well.
 */
export function lexicalQueries(
  query: string,
  expansionWeight: number,
  proximityPairs: number,
): { lexicalQuery: LexicalQuery; headIdentifiers: string[]; expansionTerms: string[] } {
  const analyzed = analyzeQuery(query);
  const ownTerms = new Set(analyzed.terms);
  // The plain phrases are found once; the embedding uses their trade terms whatever the weight.
  const expansions = expansionsOf(query);
  const expansionTerms = tradeTerms(expansions);
  // A weight of 0 turns the lexical expansion off, its phrases included (not the query's word pairs).
  const searched = expansionWeight > 0 ? expansions : [];
  return {
    expansionTerms,
    lexicalQuery: {
      ...analyzed,
      expansion: analyzeQuery(tradeTerms(searched).join(' ')).terms.filter((term) => !ownTerms.has(term)),
      // The trade terms of several words that a plain phrase of several words stands for also count
      // as the phrases they are (`each day late` → `liquidated damages`).
      optionalPhrases: [
        ...specificPhrases(searched).flatMap((term) => analyzeQuery(`"${term}"`).phrases),
        ...wordPairs(analyzed.terms).slice(0, proximityPairs),
      ],
      expansionWeight,
    },
    // Only beside other words: a query that is a number alone (`A-101`, `sheet E-301`) already
    // ranks the sources that carry it first.
    headIdentifiers:
      analyzed.terms.filter((term) => /^[a-z]{3,}$/.test(term)).length >= 2
        ? analyzed.identifiers.filter((token) => /^[a-z]{1,3}\d|^\d{5,8}$/.test(token))
        : [],
  };
}

const NO_DEFINITIONS: DefinedExpansions = { words: [], phrases: [], forms: [] };

/** A lexical query with the words of the project's definitions searched as the query's own. */
export function withDefinitions(
  query: LexicalQuery,
  defined: { words: string[]; phrases: string[] },
): LexicalQuery {
  const own = new Set(query.terms);
  return {
    ...query,
    terms: [...query.terms, ...analyzeQuery(defined.words.join(' ')).terms.filter((term) => !own.has(term))],
    optionalPhrases: [
      ...(query.optionalPhrases ?? []),
      ...defined.phrases.flatMap((phrase) => analyzeQuery(`"${phrase}"`).phrases),
    ],
  };
}

/** The search's filters: the request's, a review question's files, a review's sources. */
function filterOf(
  search: SourceSearchQuery,
  fileIds: string[] | undefined,
  reviewSources: string[] | undefined,
) {
  const filter: SearchFilter = {
    ...(search.entityTypes ? { entityTypes: search.entityTypes } : {}),
    ...(search.regionType ? { regionType: search.regionType } : {}),
    ...(search.layoutType ? { layoutType: search.layoutType } : {}),
    ...(search.drawingType ? { drawingType: search.drawingType } : {}),
    ...(search.sheetNumber ? { sheetKey: sheetKey(search.sheetNumber) } : {}),
    ...(search.fileName ? { fileName: search.fileName } : {}),
    ...(search.pageNumber !== undefined ? { pageNumber: search.pageNumber } : {}),
    ...(search.classification ? { classification: search.classification } : {}),
    ...(fileIds ? { fileIds } : {}),
    ...(reviewSources ? { sourceUris: reviewSources } : {}),
  };
  return filter;
}

/**
 * What the documents' index states say: 409 while a project with documents has none indexed, `partial`
 * while some are not (or a job still extracts files), the searched files and how many passages they hold.
 */
async function indexReadiness(
  deps: Pick<SearchDeps, 'states' | 'jobs'>,
  scope: { orgId: string; projectId: string; fileIds?: string[] },
) {
  const [documents, latest] = await Promise.all([
    deps.states.documentIndexStates(scope.projectId),
    deps.jobs.latestJob(scope.orgId, scope.projectId),
  ]);
  const searchable = documents.filter((document) => document.state.sourceCount > 0);
  const indexed = searchable.filter((document) => document.state.status === 'indexed');
  // A file is listed here once it is assembled: while a job still extracts its files, what it adds is
  // not searchable yet (409 until a first document is indexed, then `partial`).
  const processing = latest !== null && PROCESSING_STATUSES.has(latest.job.status);
  if ((searchable.length > 0 || processing) && indexed.length === 0) throw new SourceIndexNotReadyError();
  const status: 'success' | 'partial' =
    indexed.length === searchable.length && !processing ? 'success' : 'partial';
  const searchedFiles = indexed.filter(
    (document) => !scope.fileIds || scope.fileIds.includes(document.fileId),
  );
  // The passages searched: those of the searched documents, as their states count them (no index read).
  const searchedChunkCount = searchedFiles.reduce((sum, document) => sum + document.state.passageCount, 0);
  return { status, indexedCount: indexed.length, searchedFiles, searchedChunkCount };
}

/**
 * What the project adds to the lexical query once its first hits are in: the other forms of the
 * abbreviations its found passages define, and (when on) the words a question's best passages share.
 */
function projectExpansion(
  query: string,
  lexicalQuery: LexicalQuery,
  firstLexical: IndexHit[],
  feedbackCount: number,
): { defined: DefinedExpansions; searched: LexicalQuery | null } {
  const defined = definedExpansions(
    query,
    definedTermsFor(
      query,
      firstLexical.map((hit) => hit.passage.text),
    ),
  );
  const isQuestion = lexicalQuery.terms.filter((term) => /^[a-z]{3,}$/.test(term)).length >= 3;
  const feedback = isQuestion ? feedbackTerms(firstLexical, lexicalQuery.terms, feedbackCount) : [];
  if (defined.words.length === 0 && feedback.length === 0) return { defined, searched: null };
  const searched = withDefinitions(lexicalQuery, defined);
  if (feedback.length > 0) searched.expansion = [...(searched.expansion ?? []), ...feedback];
  return { defined, searched };
}

/** The rerank stage: the fused order when the reranker fails (told to the log, not to the caller). */
async function rerankStage(
  deps: Pick<SearchDeps, 'fusion' | 'log'>,
  reranker: Reranker,
  query: string,
  fused: FusedSource[],
): Promise<FusedSource[]> {
  const { sources, failed } = await rerankFused(fused, reranker, query, deps.fusion.rerankDepth ?? 20);
  if (failed) deps.log?.error('Rerank stage failed; the fused order stands', { error: failed.message });
  return sources;
}

/** A fused source as the response shows it: score, confidence, snippet, source and location. */
function presentHit(
  source: FusedSource,
  coverage: number,
  evidence: { queryWords: string[]; identifiers: string[] },
): SourceSearchHit {
  const passage = source.hit.passage;
  return {
    score: Math.round(source.score * 1e6) / 1e6,
    confidence: confidenceOf(coverage),
    snippet: snippetOf(passage.text || passage.head, evidence.queryWords, 240, evidence.identifiers),
    sourceCatalogUri: passage.sourceUri,
    source: { type: passage.entityType, id: passage.sourceId, label: passage.label },
    location: {
      documentId: passage.documentId,
      fileId: passage.fileId,
      fileName: passage.fileName,
      pageNumber: passage.pageNumber,
      pageEnd: passage.pageEnd,
      sheetNumber: passage.sheetNumber || null,
      box: passage.box,
    },
    matchedModes: [...source.modes].sort(),
  };
}

/**
 * Search the sources of one project.
 * Input: the caller's organization, the project id, the search query.
 * Output: hits (one per source, best passage as snippet) in descending score, each with its confidence.
 * Steps: ownership first (404); a review scope must exist (404); the lexical query (with the trade
 * terms of its plain words) and the query's embedding; index readiness from the documents' states
 * (409 with Retry-After while nothing is indexed yet), read beside a first search of the whole
 * index (lexical, nearest neighbours, and the sources headed by a number the query writes); a
 * partial index is searched again over its indexed documents only; the files the query names are
 * searched on their own; the abbreviations the found passages define search the lexical side again;
 * the rankings fused by reciprocal rank (`fuseRankings`, k and weight per ranking, `deps.fusion`);
 * each hit's confidence from its coverage of the query (`relevance.ts`).
 */
export async function searchSources(
  deps: SearchDeps,
  input: {
    orgId: string;
    projectId: string;
    search: SourceSearchQuery;
    /** The query's embedding, when the caller searches several projects with one query. */
    queryVector?: Promise<number[]>;
    /** Only these files (a review question's `fileIds`). */
    fileIds?: string[];
    /** The project as the caller read it from the organization's own projects (one read less). */
    project?: ProjectRecord;
  },
): Promise<SourceSearchResponse> {
  const project =
    input.project?.orgId === input.orgId && input.project.id === input.projectId
      ? input.project
      : await requireProject(deps.projects, input.orgId, input.projectId);
  const { search } = input;
  // A review's scope: the sources it has read (none yet: nothing to find).
  const reviewSources =
    search.reviewId === undefined
      ? undefined
      : await deps.reviews.reviewSources(input.orgId, project.id, search.reviewId);
  if (reviewSources === null) throw new ReviewNotFoundError();

  const modes: ('exact' | 'semantic')[] =
    search.mode === 'exact' ? ['exact'] : search.mode === 'semantic' ? ['semantic'] : ['exact', 'semantic'];
  const baseFilter = filterOf(search, input.fileIds, reviewSources);
  const { lexicalQuery, headIdentifiers, expansionTerms } = lexicalQueries(
    search.query,
    deps.fusion.expansionWeight,
    deps.fusion.proximityPairs,
  );
  // Passages, not sources, come back: ask for enough to fill maxHits distinct sources.
  const depth = Math.min(200, Math.max(30, search.maxHits * 4));
  const location = project.indexLocation;
  // Embedded once, whether the index is searched once or twice (a partial index).
  const queryVector = modes.includes('semantic')
    ? (input.queryVector ?? embedQuery(deps.embedder, queryEmbeddingText(search.query, expansionTerms)))
    : null;
  queryVector?.catch(() => undefined);
  const none = Promise.resolve([] as IndexHit[]);
  const run = (filter: SearchFilter): Promise<[IndexHit[], IndexHit[], IndexHit[]]> =>
    location
      ? Promise.all([
          modes.includes('exact') ? deps.index.lexical(location, lexicalQuery, filter, depth) : none,
          queryVector
            ? queryVector.then((vector) => deps.index.nearest(location, vector, filter, depth))
            : none,
          modes.includes('exact') && headIdentifiers.length > 0
            ? deps.index.lexical(location, { ...lexicalQuery, inHead: headIdentifiers }, filter, depth)
            : none,
        ])
      : Promise.resolve([[], [], []]);

  // The documents' index states decide the answer; the searches start beside them (most indexes are
  // complete), and only a partial index is searched again, narrowed to its indexed files.
  const speculative = run(baseFilter);
  speculative.catch(() => undefined);
  const { status, indexedCount, searchedFiles, searchedChunkCount } = await indexReadiness(deps, {
    orgId: input.orgId,
    projectId: project.id,
    ...(input.fileIds ? { fileIds: input.fileIds } : {}),
  });
  if (indexedCount === 0 || !location)
    return { status, query: search.query, modes, hitCount: 0, searchedChunkCount: 0, hits: [] };
  // A partial index may hold rows of a document being re-indexed: narrow to the indexed files (a
  // filter that scans the file column, so a complete index goes without it).
  const filter =
    status === 'partial'
      ? { ...baseFilter, fileIds: searchedFiles.map((document) => document.fileId) }
      : baseFilter;
  // The files the query names (its job, its document): their best passages are a ranking of their own.
  const named = modes.includes('exact') && !input.fileIds ? namedFiles(search.query, searchedFiles) : [];
  const [[firstLexical, semantic, identifiedHits], namedHits] = await Promise.all([
    status === 'partial' ? run(filter) : speculative,
    named.length > 0
      ? deps.index.lexical(location, lexicalQuery, { ...baseFilter, fileIds: named }, depth)
      : none,
  ]);
  const { defined, searched } = modes.includes('exact')
    ? projectExpansion(search.query, lexicalQuery, firstLexical, deps.fusion.feedbackTerms ?? 0)
    : { defined: NO_DEFINITIONS, searched: null };
  const lexical = searched ? await deps.index.lexical(location, searched, filter, depth) : firstLexical;

  const { lexicalK, semanticK, semanticWeight, namedWeight } = deps.fusion;
  const units = queryUnits(search.query, defined.forms);
  const evidence = {
    units,
    weights: unitWeights(
      units,
      firstLexical.map((hit) => `${hit.passage.head}\n${hit.passage.text}`),
    ),
    // Highlighted: the query's words, the meanings of its abbreviations, its trade terms, its defined forms.
    queryWords: [
      ...embeddingWords(search.query),
      ...`${expansionTerms.join(' ')} ${defined.words.join(' ')}`.split(/[^A-Za-z0-9]+/),
    ],
    identifiers: analyzeQuery(search.query).identifiers,
  };
  // Each passage's tokens, analyzed once: its coverage reweighs the fused order and gives its confidence.
  const analyzed = new Map<string, Set<string>>();
  const tokensOf = (passage: FusedSource['hit']['passage']) => {
    let tokens = analyzed.get(passage.passageId);
    if (!tokens) {
      tokens = passageTokens(passage.head, passage.text);
      analyzed.set(passage.passageId, tokens);
    }
    return tokens;
  };
  const coverage = ({ hit: { passage } }: FusedSource) =>
    coverageOf(evidence.units, tokensOf(passage), fileNameTokens(passage.fileName), evidence.weights);
  const ranked = reweighByCoverage(
    fuseRankings([
      { hits: lexical, mode: 'exact', k: lexicalK, weight: 1 },
      { hits: semantic, mode: 'semantic', k: semanticK, weight: semanticWeight },
      { hits: namedHits, mode: 'exact', k: lexicalK, weight: namedWeight },
      { hits: identifiedHits, mode: 'exact', k: lexicalK, weight: namedWeight },
    ]),
    coverage,
    deps.fusion.coverageWeight ?? 0,
    deps.fusion.coverageDepth ?? 20,
  );
  const fused = deps.reranker ? await rerankStage(deps, deps.reranker, search.query, ranked) : ranked;
  const hits = fused.slice(0, search.maxHits).map((source) => presentHit(source, coverage(source), evidence));
  return { status, query: search.query, modes, hitCount: hits.length, searchedChunkCount, hits };
}
