import { z } from 'zod';
import { JobResultSchema } from '../../core/content/job-result.ts';
import {
  DocumentEntitySchema,
  LAYOUT_TYPES,
  RegionEntitySchema,
  SectionEntitySchema,
  SheetEntitySchema,
  SpecificationEntitySchema,
} from '../../core/content/model.ts';
import { NormalizationSchema } from '../../core/content/normalize-regions.ts';
import { TableSchema } from '../../core/extraction/model.ts';
import { ClassificationSchema } from '../../core/jobs/model.ts';
import { ProjectOverviewSchema, ProjectSchema } from '../../core/projects/model.ts';
import {
  ProjectSearchResultItemSchema,
  ProjectSearchWarningSchema,
  ReadSourceQuerySchema,
  SourceIndexReportSchema,
  SourceSearchResponseSchema,
  SourceTextSchema,
} from '../../core/search/model.ts';
import type { Contract } from './contracts.ts';
import {
  booleanParam,
  cursorParam,
  jobIdPath,
  limitParam,
  PageEnvelopeSchema,
  pageNumberParam,
  projectIdPath,
} from './params.ts';
import {
  NormalizeRegionsBodySchema,
  ProjectSearchBodySchema,
  ReconcileBodySchema,
  SourceSearchBodySchema,
} from './request-bodies.ts';

/** Contracts of the extracted-content listings and the artifact downloads (part of CONTRACTS). */
const idParam = z.string().min(1).max(64).optional();
const textParam = z.string().min(1).max(200).optional();
const csvParam = z
  .string()
  .max(8_000)
  .transform((value) =>
    value
      .split(',')
      .map((item) => item.trim())
      .filter(Boolean),
  )
  .pipe(z.array(z.string().max(64)).min(1, 'must list at least one id').max(100, 'must list at most 100 ids'))
  .optional();
/** Paging of every content listing: up to 500 a page, 100 by default. */
const contentPage = { limit: limitParam(500, 100), cursor: cursorParam };
const regionQuery = z.object({
  ...contentPage,
  compact: booleanParam.optional(),
  fileId: idParam,
  fileName: textParam.describe('Case-insensitive substring of the file name.'),
  classification: ClassificationSchema.optional(),
  pageNumber: pageNumberParam.optional(),
  regionType: textParam,
  drawingType: textParam,
  layoutType: z.enum(LAYOUT_TYPES).optional(),
});
const sectionQuery = z.object({
  ...contentPage,
  compact: booleanParam.optional(),
  sectionNumber: textParam,
  pageStart: pageNumberParam.optional().describe('Sections starting at or after this 1-based page.'),
  pageEnd: pageNumberParam.optional().describe('Sections ending at or before this 1-based page.'),
});
const artifactQuery = z.object({ path: z.string().min(1).max(2048) }).strict();
const NormalizeRegionsResponseSchema = z.object({
  project: ProjectSchema,
  normalization: NormalizationSchema,
  overview: ProjectOverviewSchema,
});

const ReconcileResponseSchema = z.object({
  project: ProjectSchema,
  sourceIndex: SourceIndexReportSchema,
  overview: ProjectOverviewSchema,
});
export const CONTENT_CONTRACTS = {
  listRegions: {
    path: projectIdPath,
    query: regionQuery.extend({ sheets: csvParam, sheetId: idParam }).strict(),
    responses: {
      200: {
        description: 'Regions in file, page and position order.',
        schema: PageEnvelopeSchema.extend({ regions: z.array(RegionEntitySchema) }),
      },
    },
  },
  getRegionTable: {
    path: z.object({ projectId: z.string(), regionId: z.string().max(120) }),
    query: z
      .object({
        format: z
          .enum(['json', 'csv'])
          .default('json')
          .describe('`csv`: the table as `text/csv` (RFC 4180), header rows first, as an attachment.'),
      })
      .strict(),
    responses: {
      200: {
        description:
          "The table the region prints: title, frame, header rows (a heading merged over columns repeated in each), body rows with each cell's text and box. With `format=csv`, the same as CSV.",
        schema: z.object({
          regionId: z.string(),
          label: z.string(),
          regionType: z.string(),
          fileId: z.string(),
          fileName: z.string(),
          pageNumber: z.number().int(),
          sheetNumber: z.string(),
          table: TableSchema,
        }),
      },
      404: {
        description:
          '`project_not_found`, `region_not_found`, `table_not_found` (the region is not a ruled table).',
      },
    },
  },
  listSheetRegions: {
    path: z.object({ projectId: z.string(), sheetId: z.string() }),
    query: regionQuery.strict(),
    responses: {
      200: {
        description: 'Regions of the sheet.',
        schema: PageEnvelopeSchema.extend({ regions: z.array(RegionEntitySchema) }),
      },
      404: { description: '`project_not_found`, `sheet_not_found`.' },
    },
  },
  listSheets: {
    path: projectIdPath,
    query: z
      .object({
        ...contentPage,
        fileId: idParam,
        fileName: textParam,
        sheetNumber: textParam,
        discipline: z
          .string()
          .regex(/^[A-Z]{1,2}$/, 'must be a discipline designator such as A or FP')
          .optional(),
      })
      .strict(),
    responses: {
      200: {
        description: 'Sheets in file and page order.',
        schema: PageEnvelopeSchema.extend({ sheets: z.array(SheetEntitySchema) }),
      },
    },
  },
  listSpecifications: {
    path: projectIdPath,
    query: sectionQuery
      .extend({
        sheets: csvParam.describe(
          'Comma-separated sheet ids: only sections referenced by the regions of these sheets (together at most 400 distinct sections, else 400 `too_many_referenced_sections`).',
        ),
        fileId: idParam,
        fileName: textParam,
        classification: ClassificationSchema.optional(),
      })
      .strict(),
    responses: {
      200: {
        description:
          'Specification sections with their facets. A page may hold fewer than `limit` items to stay under the 6 MB response limit; follow nextCursor.',
        schema: PageEnvelopeSchema.extend({ specifications: z.array(SpecificationEntitySchema) }),
      },
      400: {
        description:
          '`invalid_request` (names the field), `invalid_cursor`; `too_many_referenced_sections` when the sheets given reference more than 400 sections.',
      },
    },
  },
  listSpecificationSections: {
    path: z.object({ projectId: z.string(), specId: z.string() }),
    query: sectionQuery.strict(),
    responses: {
      200: {
        description: 'Sections of the specification document.',
        schema: PageEnvelopeSchema.extend({ sections: z.array(SectionEntitySchema) }),
      },
      404: { description: '`open_api_specification_not_found`.' },
    },
  },
  listDocuments: {
    path: projectIdPath,
    query: z
      .object({ ...contentPage, classification: ClassificationSchema.optional(), fileName: textParam })
      .strict(),
    responses: {
      200: {
        description: 'Documents of the project.',
        schema: PageEnvelopeSchema.extend({ documents: z.array(DocumentEntitySchema) }),
      },
    },
  },
  downloadProjectArtifact: {
    path: projectIdPath,
    query: artifactQuery,
    responses: {
      200: { description: 'The raw bytes (`application/octet-stream`).' },
      302: { description: 'Artifacts over 4 MiB: a redirect to a signed storage URL valid for 5 minutes.' },
      404: { description: '`artifact_not_found`: a path not issued by this project.' },
    },
  },
  getJobResult: {
    path: jobIdPath,
    query: z.object({ limit: limitParam(1000, 500), cursor: cursorParam }).strict(),
    responses: {
      200: {
        description:
          'The immutable result; its `artifacts` are paged (up to 1,000 a page, 500 by default; `total` counts them all), the rest comes whole with every page.',
        schema: PageEnvelopeSchema.extend({ result: JobResultSchema }),
      },
      404: { description: '`job_not_found`, `job_result_not_found`.' },
      409: { description: '`job_result_not_ready`: the job has not finished.' },
    },
  },
  downloadJobArtifact: {
    path: jobIdPath,
    query: artifactQuery,
    responses: {
      200: { description: 'The raw bytes (`application/octet-stream`, with Content-Disposition).' },
      302: { description: 'Artifacts over 4 MiB: a redirect to a signed storage URL valid for 5 minutes.' },
      404: { description: "`artifact_not_found`: the path is not in this job's result." },
      409: { description: '`job_result_not_ready`.' },
    },
  },
  searchSources: {
    path: projectIdPath,
    body: SourceSearchBodySchema,
    responses: {
      200: { description: 'Hits, one per source, in descending score.', schema: SourceSearchResponseSchema },
      400: {
        description: '`invalid_request`: empty or missing query, maxHits outside 1 to 50, unknown field.',
      },
      404: { description: '`project_not_found`; `open_api_review_not_found` for an unknown reviewId.' },
      409: {
        description:
          '`source_index_not_ready`: nothing of the project is indexed yet while it has searchable sources or a job still reads its files; retry after the `Retry-After` seconds (5). Once something is indexed, the answer is `200` with `status: partial` until every source is.',
      },
    },
  },
  reconcileSourceIndex: {
    path: projectIdPath,
    body: ReconcileBodySchema,
    responses: {
      200: {
        description:
          'Nothing differs between the documents and the index (`sourceIndex.status` `ok`, `jobId` null).',
        schema: ReconcileResponseSchema,
      },
      202: {
        description:
          'A reconcile job (kind `index_reconciliation`, free of charge) was scheduled to repair up to `limit` differences, or the one already running is returned; the request itself writes nothing. Follow it with `GET /jobs/{jobId}`, then call again until `ok`.',
        schema: ReconcileResponseSchema,
      },
      400: { description: '`invalid_request`: `limit` outside 1 to 25.' },
      404: { description: '`project_not_found`.' },
      409: { description: '`project_not_ready`.' },
    },
  },
  normalizeRegions: {
    path: projectIdPath,
    body: NormalizeRegionsBodySchema,
    responses: {
      200: {
        description: 'No ready document has a region to normalize: `jobId` null, nothing scheduled.',
        schema: NormalizeRegionsResponseSchema,
      },
      202: {
        description:
          'A repair job (kind `region_normalization`, free of charge) was scheduled, or the one already running is returned; follow it with `GET /jobs/{jobId}`.',
        schema: NormalizeRegionsResponseSchema,
      },
      400: {
        description:
          '`invalid_request`: a mode other than `missing_normalized_regions`, an empty or over-long `documentIds`, unknown field.',
      },
      404: {
        description: '`project_not_found`.',
      },
      409: { description: '`project_not_ready`.' },
    },
  },
  searchProjects: {
    body: ProjectSearchBodySchema,
    responses: {
      200: {
        description:
          'Projects matched by name (first) or by their sources, with reasons, up to 3 source matches each, and warnings.',
        schema: PageEnvelopeSchema.extend({
          query: z.string(),
          projects: z.array(ProjectSearchResultItemSchema),
          warnings: z.array(ProjectSearchWarningSchema),
        }),
      },
      400: {
        description:
          '`invalid_request`: empty query, `limit` outside 1 to 100, unknown field; `invalid_cursor`.',
      },
    },
  },
  readSource: {
    path: projectIdPath,
    query: ReadSourceQuerySchema,
    responses: {
      200: {
        description:
          'The text of the source (a window of it: `offset`, `limit`, `nextOffset`), with its page range, box, document and artifacts.',
        schema: SourceTextSchema,
      },
      400: { description: '`invalid_request`: missing `uri`, `offset` or `limit` out of range.' },
      404: {
        description: '`project_not_found`; `source_not_found` for a URI of another project or of nothing.',
      },
    },
  },
} as const satisfies Record<string, Contract>;
