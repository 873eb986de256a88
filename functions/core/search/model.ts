import { z } from 'zod';
import { type Classification, DisplayBoxSchema } from '../../engine/model.ts';
import { ArtifactReferenceSchema } from '../content/model.ts';
import type { PageEnvelope } from '../pagination/page.ts';
import { ProjectSchema } from '../projects/model.ts';
import { ENTITY_TYPES, type EntityType } from './sources.ts';

export const SEARCH_MODES = ['hybrid', 'exact', 'semantic'] as const;
export const DEFAULT_MAX_HITS = 10;
export type SearchMode = (typeof SEARCH_MODES)[number];

/** Narrows a search to some sources: by kind, region, layout, drawing type, sheet, file, page or classification. */
export interface SourceFilters {
  entityTypes?: EntityType[];
  regionType?: string;
  layoutType?: string;
  drawingType?: string;
  /** Matched in canonical form: A-101 = A101 = A 101. */
  sheetNumber?: string;
  /** Case-insensitive substring of the file name. */
  fileName?: string;
  pageNumber?: number;
  classification?: Classification;
}

/** What to find in one project's sources, and how. */
export interface SourceSearchQuery extends SourceFilters {
  query: string;
  mode: SearchMode;
  /** Scopes the search to a review's sources. */
  reviewId?: string;
  maxHits: number;
}

/** What to find across the organization's projects (names and sources), one page at a time. */
export interface ProjectSearchQuery extends Omit<SourceFilters, 'entityTypes'> {
  query: string;
  projectIds?: string[];
  entityTypes?: EntityType[];
  limit: number;
  cursor?: string;
}

export const SourceSearchHitSchema = z.object({
  score: z.number().describe('Higher is more relevant; comparable within one response only.'),
  confidence: z
    .number()
    .min(0)
    .max(1)
    .describe(
      'How sure the hit answers the query, from 0 to 1, comparable across queries: from the share of the query the passage has, its semantic similarity and whether both modes found it. Under 0.5 (the relevance floor) the hit is a weak match, not an answer.',
    ),
  snippet: z.string().describe('The best passage of the source, matched query words wrapped in ** **.'),
  sourceCatalogUri: z.string(),
  source: z.object({
    type: z.enum(ENTITY_TYPES),
    id: z.string(),
    label: z.string(),
  }),
  location: z.object({
    documentId: z.string(),
    fileId: z.string(),
    fileName: z.string(),
    pageNumber: z.number().int(),
    pageEnd: z.number().int(),
    sheetNumber: z.string().nullable(),
    box: DisplayBoxSchema.nullable().describe(
      'Box of the best passage on its page (PDF points), when known.',
    ),
  }),
  matchedModes: z
    .array(z.enum(['exact', 'semantic']))
    .describe('The modes that retrieved this source (`exact`, `semantic`).'),
});
export type SourceSearchHit = z.infer<typeof SourceSearchHitSchema>;

export const SourceSearchResponseSchema = z.object({
  status: z
    .enum(['success', 'partial'])
    .describe('`partial` when some documents of the project are not indexed yet (or failed to index).'),
  query: z.string(),
  modes: z
    .array(z.enum(['exact', 'semantic']))
    .describe(
      "Retrieval modes this response used, in the request's vocabulary: `exact` (words), `semantic`; `hybrid` is both.",
    ),
  hitCount: z.number().int(),
  searchedChunkCount: z.number().int().describe('Passages in the searched index.'),
  hits: z.array(SourceSearchHitSchema),
});
export type SourceSearchResponse = z.infer<typeof SourceSearchResponseSchema>;

export const ReadSourceQuerySchema = z
  .object({
    uri: z.string().min(1).max(400).describe('A `sourceCatalogUri` from a search hit.'),
    offset: z.coerce.number().int().min(0).max(100_000_000).default(0).describe('First character to return.'),
    limit: z.coerce.number().int().min(1).max(100_000).default(20_000).describe('Characters to return.'),
  })
  .strict();

export const SourceTextSchema = z.object({
  sourceCatalogUri: z.string(),
  source: z.object({ type: z.enum(ENTITY_TYPES), id: z.string(), label: z.string() }),
  document: z.object({ documentId: z.string(), fileId: z.string(), fileName: z.string() }),
  pageStart: z.number().int(),
  pageEnd: z.number().int(),
  sheetNumber: z.string().nullable(),
  box: DisplayBoxSchema.nullable().describe(
    'Union of the boxes of the source on its page (PDF points), when known.',
  ),
  textLength: z.number().int().describe('Characters of the whole text.'),
  offset: z.number().int(),
  text: z.string().describe('The text from `offset`, at most `limit` characters.'),
  nextOffset: z.number().int().nullable().describe('Where the next window starts; null at the end.'),
  passageCount: z.number().int(),
  artifacts: z.array(ArtifactReferenceSchema).describe('The crop of a region, the PDF of a section.'),
});
export type SourceText = z.infer<typeof SourceTextSchema>;

export const SourceIndexReportSchema = z.object({
  status: z
    .enum(['ok', 'incomplete'])
    .describe(
      '`ok` when nothing differs; `incomplete`: a reconcile job (`jobId`) repairs up to `limit` tasks: follow it with `GET /jobs/{jobId}`, then call again until `ok`.',
    ),
  indexedDocuments: z.number().int(),
  missingDocuments: z
    .number()
    .int()
    .describe('Documents with sources of which the index holds nothing (or whose indexing failed).'),
  staleDocuments: z
    .number()
    .int()
    .describe('Documents indexed from other rows, or by another embedder or analyzer.'),
  orphanedFiles: z.number().int().describe('Files in the index with no document any more.'),
  repairedTasks: z
    .number()
    .int()
    .describe('Repairs this request made itself: always 0, the reconcile job makes them.'),
  scheduledTasks: z.number().int().describe('Repair tasks the reconcile job makes (at most `limit`).'),
  remainingTasks: z.number().int().describe('Differences found, the scheduled ones included.'),
  embedder: z.string(),
  jobId: z
    .string()
    .nullable()
    .describe('The reconcile job (kind `index_reconciliation`, free of charge); null when nothing differs.'),
});
export type SourceIndexReport = z.infer<typeof SourceIndexReportSchema>;

export const ProjectSearchWarningSchema = z.object({
  code: z
    .enum(['project_not_found', 'source_index_not_ready', 'source_search_truncated'])
    .describe(
      '`project_not_found`: a `projectIds` entry is not a project of the organization; `source_index_not_ready`: a project whose index is being built was matched by name only; `source_search_truncated`: more ready projects than one request searches (25, most recently updated first).',
    ),
  projectId: z.string().nullable(),
  message: z.string(),
});
export type ProjectSearchWarning = z.infer<typeof ProjectSearchWarningSchema>;

export const ProjectSearchResultItemSchema = z.object({
  project: ProjectSchema,
  matchReasons: z.array(z.enum(['name', 'source'])),
  sourceMatches: z.array(
    z.object({
      fileName: z.string(),
      sheetNumber: z.string().nullable(),
      pageNumber: z.number().int(),
      excerpt: z.string(),
      sourceCatalogUri: z.string(),
      score: z.number(),
    }),
  ),
});
export type ProjectSearchResultItem = z.infer<typeof ProjectSearchResultItemSchema>;

export type ProjectSearchResponse = PageEnvelope & {
  query: string;
  projects: ProjectSearchResultItem[];
  warnings: ProjectSearchWarning[];
};
