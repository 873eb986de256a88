/**
 * Result shapes of the extraction engine, as zod schemas (the API layer generates OpenAPI from them).
 *
 * Coordinate system, used by every box in this module: PDF points (1/72 in), origin at the top-left corner
 * of the page AS DISPLAYED — after applying /Rotate, inside the CropBox. x grows to the right, y grows
 * downwards. This is the space of `pdftotext -cropbox -bbox-layout` words and of `pdftoppm -cropbox`
 * pixels × 72 / dpi.
 */
import { z } from 'zod';

export const EXTRACTION_SCHEMA_VERSION = 1 as const;
export const NORMALIZED_DATA_SCHEMA_VERSION = 1 as const;
/** Largest facet text (characters); longer facets are split into chunks with coverageKind `partial`. */
export const MAX_FACET_TEXT = 50_000;

export const DisplayBoxSchema = z
  .object({ left: z.number(), top: z.number(), right: z.number(), bottom: z.number() })
  .meta({
    id: 'DisplayBox',
    description: 'PDF points from the top-left of the displayed page (after /Rotate, CropBox).',
  });
export type DisplayBox = z.infer<typeof DisplayBoxSchema>;

/**
 * Document classifications: one list for the whole service (jobs, content and search import it from here, the
 * engine being the module every other domain may depend on).
 */
export const CLASSIFICATIONS = ['plans', 'specifications', 'documents', 'addenda', 'mixed', 'other'] as const;
export const ClassificationSchema = z.enum(CLASSIFICATIONS);
export type Classification = z.infer<typeof ClassificationSchema>;

/** Per-page kind: a drawing sheet, a page of a specification section, another text page, or nothing readable. */
export const PageClassificationSchema = z.enum(['plans', 'specifications', 'documents', 'other']);
export type PageClassification = z.infer<typeof PageClassificationSchema>;

export const TextSourceSchema = z.enum(['textLayer', 'ocr', 'mixed', 'none']);
export type TextSource = z.infer<typeof TextSourceSchema>;

export const ExtractionErrorCodeSchema = z.enum([
  'pdf_malformed',
  'pdf_encrypted',
  'pdf_empty',
  'pdf_too_many_pages',
  'pdf_too_large',
  'page_timeout',
  'file_timeout',
  'resource_limit',
  'invalid_page_range',
  'ocr_failed',
  'render_failed',
]);
export type ExtractionErrorCode = z.infer<typeof ExtractionErrorCodeSchema>;

export const PageIssueSchema = z.object({
  pageNumber: z.number().int().min(1),
  code: ExtractionErrorCodeSchema,
  message: z.string(),
});
export type PageIssue = z.infer<typeof PageIssueSchema>;

export const PageInfoSchema = z.object({
  pageNumber: z.number().int().min(1),
  /** Displayed size in points (after /Rotate, CropBox). */
  width: z.number(),
  height: z.number(),
  rotation: z.number().int(),
  hasTextLayer: z.boolean(),
  textCharCount: z.number().int(),
  ocr: z
    .object({
      used: z.boolean(),
      scope: z.enum(['titleBlock', 'page']),
      meanConfidence: z.number(),
      seconds: z.number(),
    })
    .nullable(),
  classification: PageClassificationSchema,
  isBlank: z.boolean(),
  /** Set when this page could not be processed (the rest of the file still was). */
  issue: PageIssueSchema.nullable(),
});
export type PageInfo = z.infer<typeof PageInfoSchema>;

// ---------------------------------------------------------------------------------------------------------
// normalizedData (versioned)
// ---------------------------------------------------------------------------------------------------------

export const ScaleSchema = z.object({
  /** As printed, e.g. `1/8" = 1'-0"` or `1" = 30'-0"`, or `NTS`. */
  text: z.string(),
  /** Drawing units per real unit (1/8" = 1'-0" gives 1/96), null when not to scale or unparsed. */
  ratio: z.number().nullable(),
});
export type Scale = z.infer<typeof ScaleSchema>;

export const SheetReferenceSchema = z.object({
  /** As found, e.g. `5/A-501` or `SEE DETAIL 3 ON S2.1`. */
  text: z.string(),
  detail: z.string().nullable(),
  sheet: z.string(),
  /** Normalized sheet number (see normalizeSheetNumber): uppercase, no spaces, single hyphens kept. */
  sheetNormalized: z.string(),
  displayBox: DisplayBoxSchema.nullable(),
  /**
   * The referenced sheet (its page) and, when the detail number names one of its views, that view's region: in
   * the same file, or, with `documentId`, in another file of the project (resolved at assembly, also when the
   * sheet arrives in a later job); null when no file of the project holds a sheet with that number yet.
   * Absent on results made before references were resolved.
   */
  target: z
    .object({
      pageNumber: z.number().int().min(1),
      regionId: z.string().nullable(),
      /** The document that holds the sheet, when another file of the project holds it (set at assembly). */
      documentId: z.string().optional(),
    })
    .nullable()
    .optional(),
});
export type SheetReference = z.infer<typeof SheetReferenceSchema>;

export const SpecReferenceSchema = z.object({
  text: z.string(),
  /** `NN NN NN`, `NN NN NN.NN`, or a 1995 five-digit number as printed. */
  sectionNumber: z.string(),
});
export type SpecReference = z.infer<typeof SpecReferenceSchema>;

export const KeynoteSchema = z.object({ key: z.string(), text: z.string() });
export type Keynote = z.infer<typeof KeynoteSchema>;

export const ScheduleSchema = z.object({
  columns: z.array(z.string()),
  rows: z.array(z.record(z.string(), z.string())),
});
export type Schedule = z.infer<typeof ScheduleSchema>;

export const RevisionSchema = z.object({
  mark: z.string(),
  description: z.string().nullable(),
  date: z.string().nullable(),
});
export type Revision = z.infer<typeof RevisionSchema>;

export const NormalizedDataSchema = z
  .object({
    schemaVersion: z.literal(NORMALIZED_DATA_SCHEMA_VERSION),
    sheetNumber: z.string().nullable(),
    viewNumber: z.string().nullable(),
    viewTitle: z.string().nullable(),
    scale: ScaleSchema.nullable(),
    sheetReferences: z.array(SheetReferenceSchema),
    specReferences: z.array(SpecReferenceSchema),
    keynotes: z.array(KeynoteSchema),
    schedule: ScheduleSchema.nullable(),
    revisions: z.array(RevisionSchema),
  })
  .meta({
    id: 'RegionNormalizedData',
    description: 'Machine-readable content of a region, schemaVersion 1.',
  });
export type NormalizedData = z.infer<typeof NormalizedDataSchema>;

// ---------------------------------------------------------------------------------------------------------
// Sheets and regions
// ---------------------------------------------------------------------------------------------------------

export const RegionTypeSchema = z.enum([
  'titleBlock',
  'view',
  'generalNotes',
  'notes',
  'keynotes',
  'legend',
  'abbreviations',
  'schedule',
  'revisionBlock',
  'stamp',
  'sheetIndex',
]);
export type RegionType = z.infer<typeof RegionTypeSchema>;

export const DrawingTypeSchema = z.enum([
  'plan',
  'elevation',
  'section',
  'detail',
  'diagram',
  'schedule',
  'schematic',
  'profile',
  'map',
  'perspective',
]);
export type DrawingType = z.infer<typeof DrawingTypeSchema>;

export const TableCellSchema = z.object({
  /** Text as printed, wrapped lines joined by one space; `''` for an empty cell or one a merged cell covers. */
  text: z.string(),
  /** The printed cell (a merged cell's whole box on each column it covers). */
  displayBox: DisplayBoxSchema,
});

export const TableRowSchema = z.object({
  displayBox: DisplayBoxSchema,
  /** One cell per column. */
  cells: z.array(TableCellSchema),
  /** A full-width row naming the group of rows under it (`FLOORING`). */
  divider: z.boolean(),
});

export const TableSchema = z
  .object({
    title: z.string().nullable(),
    /** The printed frame (title row included when it is inside the frame). */
    displayBox: DisplayBoxSchema,
    columnCount: z.number().int().min(1),
    /** Header rows, one string per column; a heading merged over several columns is repeated in each. */
    header: z.array(z.array(z.string())),
    /** Body rows, top to bottom. */
    rows: z.array(TableRowSchema),
  })
  .meta({
    id: 'ExtractedTable',
    description:
      'A table printed as a ruled grid (schedule, legend, index, log): its header and rows with boxes.',
  });
export type Table = z.infer<typeof TableSchema>;

export const RegionSchema = z
  .object({
    /** Stable within a result: `p<page>-<type>-<n>`. */
    regionId: z.string(),
    pageNumber: z.number().int().min(1),
    sheetNumber: z.string().nullable(),
    label: z.string(),
    regionType: RegionTypeSchema,
    drawingType: DrawingTypeSchema.nullable(),
    text: z.string(),
    displayBox: DisplayBoxSchema,
    titleDisplayBox: DisplayBoxSchema.nullable(),
    textSource: TextSourceSchema,
    /** Mean OCR confidence 0..100 of the words in the region, null for text-layer text. */
    ocrConfidence: z.number().nullable(),
    normalizedData: NormalizedDataSchema,
    /** The region's table when it is printed as a ruled grid; absent otherwise (and on older results). */
    table: TableSchema.optional(),
  })
  .meta({ id: 'ExtractedRegion' });
export type Region = z.infer<typeof RegionSchema>;

export const DisciplineSchema = z.object({
  /** US National CAD Standard designator (G, H, V, B, C, L, S, A, I, Q, F, P, D, M, E, W, T, R, X, Z, O). */
  code: z.string(),
  label: z.string(),
  /** The prefix as the set prints it (AF, CR, SW, TCP, ...). */
  printedPrefix: z.string(),
  /** True when the printed prefix is not an NCS designator and `code` is the nearest one. */
  setSpecific: z.boolean(),
});
export type Discipline = z.infer<typeof DisciplineSchema>;

export const SheetIdentificationSchema = z
  .object({
    numberSource: z
      .enum(['titleBlock', 'drawingIndex', 'numberingRun', 'none'])
      .describe(
        "titleBlock: read where the sheet prints it; drawingIndex: one of its readings chosen, or its place taken, from the set's drawing index; numberingRun: its place in an unbroken run of the neighbouring sheets' numbers; none: no number.",
      ),
    titleSource: z
      .enum(['titleBlock', 'drawingIndex', 'both', 'none'])
      .describe(
        "titleBlock: as read in the title block; drawingIndex: from the set's drawing index (nothing read in the block); both: the block's reading mended with the index entry; none: no title.",
      ),
    indexEntry: z
      .object({ number: z.string(), title: z.string() })
      .nullable()
      .describe(
        "The entry of the set's drawing index for this sheet, as printed; null without an index or entry.",
      ),
  })
  .meta({ id: 'ExtractedSheetIdentification' });
export type SheetIdentification = z.infer<typeof SheetIdentificationSchema>;

export const SheetSchema = z
  .object({
    pageNumber: z.number().int().min(1),
    sheetNumber: z.string().nullable(),
    sheetNumberNormalized: z.string().nullable(),
    sheetTitle: z.string().nullable(),
    discipline: DisciplineSchema.nullable(),
    revisions: z.array(RevisionSchema),
    pageSize: z.object({ width: z.number(), height: z.number(), name: z.string().nullable() }),
    sheetNumberBox: DisplayBoxSchema.nullable(),
    sheetTitleBox: DisplayBoxSchema.nullable(),
    /** Where the sheet number came from. */
    textSource: TextSourceSchema,
    /** 0..1, how sure the engine is of the sheet number. */
    confidence: z.number(),
    /** Where the number and the title came from, and the set's index entry for the sheet. */
    identification: SheetIdentificationSchema.optional(),
    regions: z.array(RegionSchema),
  })
  .meta({ id: 'ExtractedSheet' });
export type Sheet = z.infer<typeof SheetSchema>;

// ---------------------------------------------------------------------------------------------------------
// Specification sections and facets
// ---------------------------------------------------------------------------------------------------------

export const FacetKindSchema = z.enum(['section', 'part', 'article']);
export type FacetKind = z.infer<typeof FacetKindSchema>;

export const FacetSchema = z
  .object({
    /** `section`, `part-1`, `part-1.article-1.4`, `article-1.04`; chunks of long facets add `.chunk-<n>`. */
    facetKey: z.string(),
    facetKind: FacetKindSchema,
    facetLabel: z.string(),
    coverageKind: z.enum(['full', 'partial']),
    facetText: z.string().max(MAX_FACET_TEXT),
    pageStart: z.number().int().min(1),
    pageEnd: z.number().int().min(1),
  })
  .meta({ id: 'ExtractedSpecificationFacet' });
export type Facet = z.infer<typeof FacetSchema>;

export const SpecSectionSchema = z
  .object({
    sectionNumber: z.string(),
    sectionNumberAsPrinted: z.string(),
    numberFormat: z.enum(['masterformat2004', 'masterformat1995']),
    sectionTitle: z.string(),
    pageStart: z.number().int().min(1),
    pageEnd: z.number().int().min(1),
    /** `heading` when a SECTION heading was printed, `footer` when the section was found from page footers only. */
    detectedFrom: z.enum(['heading', 'footer']),
    endOfSectionPrinted: z.boolean(),
    appendix: z.string().nullable(),
    isTableOfContents: z.boolean(),
    textLength: z.number().int(),
    facets: z.array(FacetSchema),
  })
  .meta({ id: 'ExtractedSpecificationSection' });
export type SpecSection = z.infer<typeof SpecSectionSchema>;

// ---------------------------------------------------------------------------------------------------------
// The whole result
// ---------------------------------------------------------------------------------------------------------

export const ExtractionResultSchema = z
  .object({
    schemaVersion: z.literal(EXTRACTION_SCHEMA_VERSION),
    fileName: z.string().nullable(),
    pageCount: z.number().int().min(1),
    /** The processed range (the whole file unless `pages` was given). */
    pageRange: z.object({ from: z.number().int().min(1), to: z.number().int().min(1) }),
    classification: ClassificationSchema,
    classificationSource: z.enum(['given', 'detected']),
    pages: z.array(PageInfoSchema),
    sheets: z.array(SheetSchema),
    specifications: z.array(SpecSectionSchema),
    issues: z.array(PageIssueSchema),
    stats: z.object({
      elapsedMs: z.number(),
      ocrPages: z.number().int(),
      ocrSeconds: z.number(),
    }),
  })
  .meta({ id: 'ExtractionResult' });
export type ExtractionResult = z.infer<typeof ExtractionResultSchema>;
