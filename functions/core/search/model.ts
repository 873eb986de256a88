import { z } from 'zod';
import { ArtifactReferenceSchema } from '../content/model.ts';
import { DisplayBoxSchema } from '../extraction/model.ts';
import { ClassificationSchema } from '../jobs/model.ts';
import type { PageEnvelope } from '../pagination/page.ts';
import { ProjectSchema } from '../projects/model.ts';
import { ENTITY_TYPES } from './sources.ts';

export const SEARCH_MODES = ['hybrid', 'exact', 'semantic'] as const;
export const DEFAULT_MAX_HITS = 10;

const filterText = (max: number) => z.string().trim().min(1).max(max);

export const SourceSearchBodySchema = z
  .object({
    query: z.string().trim().min(1).max(1000).describe('What to find; at least 1 character.'),
    mode: z
      .enum(SEARCH_MODES)
      .default('hybrid')
      .describe(
        '`exact`: BM25 over construction-aware tokens (identifiers, abbreviations, stems); `semantic`: embedding similarity; `hybrid` (default): both, fused by reciprocal rank.',
      ),
    reviewId: filterText(64).optional().describe("Scopes the search to a review's sources."),
    entityTypes: z
      .array(z.enum(ENTITY_TYPES))
      .min(1)
      .max(ENTITY_TYPES.length)
      .optional()
      .describe(
        '`region` (regions of drawing sheets), `specification` (sections and facets), `doc` (page text: pages of other documents, and the text of a drawing sheet outside its regions).',
      ),
    maxHits: z.number().int().min(1).max(50).default(DEFAULT_MAX_HITS),
    regionType: filterText(100).optional(),
    layoutType: filterText(100).optional(),
    drawingType: filterText(100).optional(),
    sheetNumber: filterText(100).optional().describe('Matched in canonical form: A-101 = A101 = A 101.'),
    fileName: filterText(255).optional().describe('Case-insensitive substring of the file name.'),
    pageNumber: z.number().int().min(1).max(100_000).optional(),
    classification: ClassificationSchema.optional(),
  })
  .strict();
export type SourceSearchBody = z.infer<typeof SourceSearchBodySchema>;

export const SourceSearchHitSchema = z
  .object({
    score: z.number().describe('Higher is more relevant; comparable within one response only.'),
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
  })
  .meta({ id: 'SourceSearchHit' });
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

export const SourceTextSchema = z
  .object({
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
  })
  .meta({ id: 'SourceText' });
export type SourceText = z.infer<typeof SourceTextSchema>;

export const ReconcileBodySchema = z
  .object({
    limit: z
      .number()
      .int()
      .min(1)
      .max(25)
      .default(5)
      .describe('Repair tasks the reconcile job scheduled by this request makes.'),
  })
  .strict();

export const SourceIndexReportSchema = z
  .object({
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
      .describe(
        'The reconcile job (kind `index_reconciliation`, free of charge); null when nothing differs.',
      ),
  })
  .meta({ id: 'SourceIndexReport' });
export type SourceIndexReport = z.infer<typeof SourceIndexReportSchema>;

export const ProjectSearchBodySchema = z
  .object({
    query: z
      .string()
      .trim()
      .min(1)
      .max(500)
      .describe('Matched against project names and, semantically and exactly, their sources.'),
    projectIds: z.array(z.string().max(64)).min(1).max(100).optional(),
    limit: z.number().int().min(1).max(100).default(25),
    cursor: z.string().max(2048).optional(),
    entityTypes: SourceSearchBodySchema.shape.entityTypes,
    regionType: filterText(100).optional(),
    layoutType: filterText(100).optional(),
    drawingType: filterText(100).optional(),
    sheetNumber: filterText(100).optional(),
    fileName: filterText(255).optional(),
    classification: ClassificationSchema.optional(),
    pageNumber: z.number().int().min(1).max(100_000).optional(),
  })
  .strict();
export type ProjectSearchBody = z.infer<typeof ProjectSearchBodySchema>;

export const ProjectSearchWarningSchema = z
  .object({
    code: z
      .enum(['project_not_found', 'source_index_not_ready', 'source_search_truncated'])
      .describe(
        '`project_not_found`: a `projectIds` entry is not a project of the organization; `source_index_not_ready`: a project whose index is being built was matched by name only; `source_search_truncated`: more ready projects than one request searches (25, most recently updated first).',
      ),
    projectId: z.string().nullable(),
    message: z.string(),
  })
  .meta({ id: 'ProjectSearchWarning' });
export type ProjectSearchWarning = z.infer<typeof ProjectSearchWarningSchema>;

export const ProjectSearchResultItemSchema = z
  .object({
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
  })
  .meta({ id: 'ProjectSearchResultItem' });
export type ProjectSearchResultItem = z.infer<typeof ProjectSearchResultItemSchema>;

export type ProjectSearchResponse = PageEnvelope & {
  query: string;
  projects: ProjectSearchResultItem[];
  warnings: ProjectSearchWarning[];
};
