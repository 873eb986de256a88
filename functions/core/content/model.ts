import { z } from 'zod';
import {
  DisplayBoxSchema,
  type Facet,
  NormalizedDataSchema,
  type Region,
  type Sheet,
  SheetIdentificationSchema,
  TableSchema,
} from '../../engine/model.ts';
import { ClassificationSchema } from '../jobs/model.ts';
import type { ContentFingerprint } from '../revisions/model.ts';
import type { ContentSummary } from './summary.ts';

/**
 * What the API lists of extracted content. Records are what the table stores; entities are what
 * clients see (artifact references are added per request, and stripped with compact=true).
 */
export const ArtifactReferenceSchema = z.object({
  type: z.enum(['region_crop', 'specification_file', 'job_result']),
  url: z
    .string()
    .describe('Path of the artifact endpoint that serves these bytes (bearer key with artifacts:read).'),
  path: z.string().describe('Opaque; pass unchanged as the `path` query parameter of the artifact endpoint.'),
  readWith: z.literal('service_show_artifact_file'),
});
export type ArtifactReference = z.infer<typeof ArtifactReferenceSchema>;

export const LAYOUT_TYPES = ['drawing_sheet', 'specification_page', 'document_page'] as const;

export const RegionEntitySchema = z.object({
  regionId: z.string(),
  fileId: z.string(),
  sheetId: z.string(),
  fileName: z.string(),
  pageNumber: z.number().int(),
  sheetNumber: z.string().describe('As printed in the title block; empty when none was found.'),
  label: z.string(),
  regionType: z.string(),
  drawingType: z.string().nullable(),
  layoutType: z.enum(LAYOUT_TYPES),
  classification: ClassificationSchema,
  text: z.string(),
  textSource: z.enum(['textLayer', 'ocr', 'mixed', 'none']),
  ocrConfidence: z.number().nullable(),
  displayBox: DisplayBoxSchema,
  titleDisplayBox: DisplayBoxSchema.describe(
    'The box of the region title; equal to displayBox when the region has no separate title.',
  ),
  normalizedData: NormalizedDataSchema.nullable().describe(
    'What a program wants from the region without parsing its text (references, scale, keynotes, schedule). null when the region has not been normalized; `POST /projects/{projectId}/regions/normalize` repairs it.',
  ),
  table: TableSchema.optional().describe(
    'The table a schedule, legend, index or log region prints as a ruled grid: header rows and body rows with their cells and boxes. Absent when the region is not a ruled table (or was extracted before tables were read).',
  ),
  artifacts: z.array(ArtifactReferenceSchema).optional(),
});
export type RegionEntity = z.infer<typeof RegionEntitySchema>;

export const SheetEntitySchema = z.object({
  sheetId: z.string(),
  fileId: z.string(),
  documentId: z.string(),
  fileName: z.string(),
  pageNumber: z.number().int(),
  sheetNumber: z.string().nullable(),
  sheetTitle: z.string().nullable(),
  discipline: z
    .object({ code: z.string(), label: z.string(), printedPrefix: z.string(), setSpecific: z.boolean() })
    .nullable(),
  revisions: z.array(
    z.object({ mark: z.string(), description: z.string().nullable(), date: z.string().nullable() }),
  ),
  pageSize: z.object({ width: z.number(), height: z.number(), name: z.string().nullable() }),
  textSource: z.enum(['textLayer', 'ocr', 'mixed', 'none']),
  confidence: z.number(),
  identification: SheetIdentificationSchema.optional().describe(
    "Where the sheet number and title came from (title block, drawing index, numbering run) and the entry of the set's drawing index for the sheet. Absent on sheets extracted before it was recorded.",
  ),
  regionCount: z.number().int(),
  current: z
    .boolean()
    .describe(
      'False when a later upload (a document of another job) was recognised as a revision of this sheet: `supersededBy` names it. Listings show only current sheets unless `includeSuperseded=true`.',
    ),
  revisionOf: z
    .object({
      sheetId: z.string().describe('The earlier printing of this sheet, which this one supersedes.'),
      confidence: z.number().describe('0..1, how sure the match of the two printings is.'),
    })
    .nullable()
    .describe('The sheet of an earlier upload this one was recognised as a revision of; null when none.'),
  supersededBy: z
    .string()
    .nullable()
    .describe(
      'The sheet that revises this one (its `revisionOf` names this sheet); null while this one is current.',
    ),
});
export type SheetEntity = z.infer<typeof SheetEntitySchema>;

export const FacetEntitySchema = z.object({
  facetId: z.string(),
  facetKey: z.string(),
  facetKind: z.string(),
  facetLabel: z.string(),
  coverageKind: z.enum(['full', 'partial']),
  facetText: z.string().max(50_000),
  pageStart: z.number().int(),
  pageEnd: z.number().int(),
  artifacts: z.array(ArtifactReferenceSchema).optional(),
});

export const SpecificationEntitySchema = z.object({
  specificationId: z.string(),
  specId: z.string().describe('The specification document (file) this section belongs to.'),
  fileId: z.string(),
  fileName: z.string(),
  classification: ClassificationSchema,
  sectionNumber: z.string(),
  sectionTitle: z.string(),
  pageStart: z.number().int(),
  pageEnd: z.number().int(),
  facets: z.array(FacetEntitySchema),
  artifacts: z.array(ArtifactReferenceSchema).optional(),
});
export type SpecificationEntity = z.infer<typeof SpecificationEntitySchema>;

export const SectionEntitySchema = z.object({
  sectionId: z.string(),
  specId: z.string(),
  sectionNumber: z.string(),
  sectionTitle: z.string(),
  pageStart: z.number().int(),
  pageEnd: z.number().int(),
  textLength: z.number().int(),
  artifacts: z.array(ArtifactReferenceSchema).optional(),
});
export type SectionEntity = z.infer<typeof SectionEntitySchema>;

export const SearchIndexStateSchema = z.object({
  status: z
    .enum(['pending', 'indexed', 'failed'])
    .describe('pending until the pipeline (or reconcile) has written the passages to the project index.'),
  sourceCount: z
    .number()
    .int()
    .describe('Searchable sources of the document (regions, sections, facets, pages).'),
  passageCount: z.number().int().describe('Passages those sources were split into.'),
  indexedAt: z.string().nullable(),
  error: z.object({ code: z.string(), message: z.string() }).nullable(),
});
export type SearchIndexState = z.infer<typeof SearchIndexStateSchema>;

export const DocumentEntitySchema = z.object({
  documentId: z.string(),
  fileId: z.string(),
  jobId: z.string(),
  fileName: z.string(),
  contentType: z.string(),
  fileSize: z.number().int(),
  sha256: z.string(),
  classification: ClassificationSchema,
  classificationSource: z.enum(['given', 'detected']),
  pageCount: z.number().int(),
  successfulPageCount: z.number().int(),
  sheetCount: z.number().int(),
  specificationCount: z.number().int(),
  status: z.enum(['ready', 'error']),
  searchIndex: SearchIndexStateSchema,
  createdAt: z.string(),
});
export type DocumentEntity = z.infer<typeof DocumentEntitySchema>;

// ---- stored records ----

export interface FileContext {
  orgId: string;
  projectId: string;
  jobId: string;
  fileId: string;
  documentId: string;
  fileName: string;
  classification: z.infer<typeof ClassificationSchema>;
}

export interface RegionRecord extends Omit<RegionEntity, 'artifacts'> {
  projectId: string;
  regionIndex: number;
  /** Lower-cased file name, for the case-insensitive substring filter. */
  fileNameLower: string;
  cropPath: string | null;
}

/** What a sheet's row says of its revisions (written after the row, by recognising revised sheets). */
export interface SheetRevisionLinks {
  revisionOf?: { sheetId: string; confidence: number } | null;
  supersededBy?: string | null;
}

export interface SheetRecord
  extends Omit<SheetEntity, 'current' | 'revisionOf' | 'supersededBy'>,
    SheetRevisionLinks {
  projectId: string;
  fileNameLower: string;
  /** The sample of the sheet's printed words revision matching compares (absent on rows written before it). */
  fingerprint?: ContentFingerprint;
}

export interface SpecSectionRecord {
  projectId: string;
  specificationId: string;
  specId: string;
  fileId: string;
  fileName: string;
  fileNameLower: string;
  classification: z.infer<typeof ClassificationSchema>;
  sectionIndex: number;
  sectionNumber: string;
  sectionTitle: string;
  pageStart: number;
  pageEnd: number;
  textLength: number;
  facetCount: number;
  pdfPath: string | null;
}

export interface FacetRecord {
  projectId: string;
  specificationId: string;
  facetId: string;
  facetIndex: number;
  facetKey: string;
  facetKind: Facet['facetKind'];
  facetLabel: string;
  coverageKind: Facet['coverageKind'];
  facetText: string;
  pageStart: number;
  pageEnd: number;
}

export interface DocumentRecord extends DocumentEntity {
  orgId: string;
  projectId: string;
  fileNameLower: string;
  /** Written with the file's content (never by the pipeline's callers). */
  contentSummary?: ContentSummary;
  /** Sheet keys (`A501`) its regions reference that no file of the project held yet (pipeline/waiting-sheets.ts). */
  unresolvedSheetRefs?: string[];
}

const core = (id: string) => id.replace(/^[a-z]+_/, '');

export const contentIds = {
  sheet: (fileId: string, page: number) => `sht_${core(fileId)}_${page}`,
  /** What every sheet id of the file starts with. */
  sheetsOfFile: (fileId: string) => `sht_${core(fileId)}_`,
  region: (fileId: string, page: number, index: number) => `reg_${core(fileId)}_${page}_${index}`,
  section: (fileId: string, index: number) => `sec_${core(fileId)}_${index}`,
  facet: (fileId: string, index: number, facet: number) => `fct_${core(fileId)}_${index}_${facet}`,
  /** `reg_<file>_<page>_<index>` -> the file, page and position, to find a region's row; null for anything else. */
  parseRegion(regionId: string): { fileId: string; page: number; index: number } | null {
    const match = /^reg_([0-9a-z]{26})_(\d{1,5})_(\d{1,4})$/.exec(regionId);
    return match ? { fileId: `fil_${match[1]}`, page: Number(match[2]), index: Number(match[3]) } : null;
  },
  /** `sht_<file>_<page>` -> the file and page, to find a sheet's rows; null for anything else. */
  parseSheet(sheetId: string): { fileId: string; page: number } | null {
    const match = /^sht_([0-9a-z]{26})_(\d{1,5})$/.exec(sheetId);
    return match ? { fileId: `fil_${match[1]}`, page: Number(match[2]) } : null;
  },
};

export type { Region, Sheet };
