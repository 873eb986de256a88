import type { ExtractionResult, Table } from '../../engine/index.ts';
import {
  contentIds,
  type DocumentRecord,
  type FacetRecord,
  type FileContext,
  type RegionRecord,
  type SheetRecord,
  type SpecSectionRecord,
} from '../content/model.ts';
import type { JobFileRecord } from '../jobs/model.ts';
import { sheetForMatching } from '../revisions/sheet-for-matching.ts';
import { type DocumentPageText, fileSources, type Passage, passageCounts } from '../search/sources.ts';
import { objectKeys } from '../storage-keys.ts';
import { now } from './model.ts';
import type { FileContent } from './ports.ts';

/** The table rows of one assembled file (no I/O: the artifacts are stored before). */
/**
 * A table is kept on its region's row up to this size (JSON characters), well inside an item's 400 KB with the
 * region's text beside it; a larger one (a drawing index of hundreds of rows) keeps its columns and records in
 * `normalizedData.schedule` only.
 */
const MAX_TABLE_JSON = 150_000;

const storableTable = (table: Table): boolean => JSON.stringify(table).length <= MAX_TABLE_JSON;

export function contentRows(args: {
  ctx: FileContext;
  file: JobFileRecord;
  result: ExtractionResult;
  successfulPages: number;
  /** Keys of the region crops that exist in storage. */
  cropKeys: ReadonlySet<string>;
  /** The real sections (table of contents excluded), in order, with their PDF's key if one was stored. */
  sections: { section: ExtractionResult['specifications'][number]; pdfKey: string | null }[];
  /** Pages of the file that are neither sheets nor sections, with their text lines (indexed as `doc` sources). */
  documentPages: DocumentPageText[];
  /** The text lines of each page as extracted (facet passages are cut at page breaks with them). */
  pageLines?: (pageNumber: number) => string[];
}): { content: FileContent; passages: Passage[] } {
  const { ctx, file, result } = args;
  const { sheets, regions } = sheetRows(ctx, result, args.cropKeys, args.pageLines);
  const { sections, facets } = sectionRows(ctx, args.sections);
  const passages = contentPassages(
    ctx,
    { sheets, regions, sections, facets },
    args.documentPages,
    args.pageLines,
  );
  const document: DocumentRecord = {
    orgId: ctx.orgId,
    projectId: ctx.projectId,
    documentId: ctx.documentId,
    jobId: ctx.jobId,
    ...fileFieldsOf(ctx),
    contentType: file.contentType,
    fileSize: file.fileSize,
    sha256: file.sha256,
    classification: result.classification,
    classificationSource: result.classificationSource,
    pageCount: result.pageCount,
    successfulPageCount: args.successfulPages,
    sheetCount: sheets.length,
    specificationCount: sections.length,
    status: 'ready',
    searchIndex: { status: 'pending', ...passageCounts(passages), indexedAt: null, error: null },
    createdAt: now(),
  };
  return { content: { document, sheets, regions, sections, facets }, passages };
}

/** The file's name on each of its rows (the lower-cased one is what the listings filter by). */
const fileFieldsOf = (ctx: FileContext) => ({
  fileId: ctx.fileId,
  fileName: ctx.fileName,
  fileNameLower: ctx.fileName.toLowerCase(),
});

/**
 * A row per drawing sheet, with the content fingerprint revision matching compares (from the page's text
 * lines, when given), and a row per region of each (its crop's key where the crop is stored).
 */
function sheetRows(
  ctx: FileContext,
  result: ExtractionResult,
  cropKeys: ReadonlySet<string>,
  pageLines?: (pageNumber: number) => string[],
): { sheets: SheetRecord[]; regions: RegionRecord[] } {
  const fileFields = fileFieldsOf(ctx);
  const pageClass = new Map(result.pages.map((page) => [page.pageNumber, page.classification]));
  const sheets: SheetRecord[] = [];
  const regions: RegionRecord[] = [];
  for (const sheet of result.sheets) {
    const sheetId = contentIds.sheet(ctx.fileId, sheet.pageNumber);
    sheets.push({
      projectId: ctx.projectId,
      sheetId,
      documentId: ctx.documentId,
      ...fileFields,
      pageNumber: sheet.pageNumber,
      sheetNumber: sheet.sheetNumber,
      sheetTitle: sheet.sheetTitle,
      discipline: sheet.discipline,
      revisions: sheet.revisions,
      pageSize: sheet.pageSize,
      textSource: sheet.textSource,
      confidence: sheet.confidence,
      ...(sheet.identification ? { identification: sheet.identification } : {}),
      regionCount: sheet.regions.length,
      ...(pageLines
        ? {
            fingerprint: sheetForMatching({
              id: sheetId,
              sheet,
              fileName: ctx.fileName,
              lines: pageLines(sheet.pageNumber),
            }).fingerprint,
          }
        : {}),
    });
    for (const [index, region] of sheet.regions.entries()) {
      const regionId = contentIds.region(ctx.fileId, sheet.pageNumber, index);
      const cropKey = objectKeys.regionCrop(ctx, regionId);
      regions.push({
        projectId: ctx.projectId,
        regionId,
        regionIndex: index,
        sheetId,
        ...fileFields,
        pageNumber: sheet.pageNumber,
        sheetNumber: sheet.sheetNumber ?? '',
        label: region.label,
        regionType: region.regionType,
        drawingType: region.drawingType,
        layoutType: pageClass.get(sheet.pageNumber) === 'plans' ? 'drawing_sheet' : 'document_page',
        classification: ctx.classification,
        text: region.text,
        textSource: region.textSource,
        ocrConfidence: region.ocrConfidence,
        displayBox: region.displayBox,
        titleDisplayBox: region.titleDisplayBox ?? region.displayBox,
        normalizedData: region.normalizedData,
        ...(region.table && storableTable(region.table) ? { table: region.table } : {}),
        cropPath: cropKeys.has(cropKey) ? cropKey : null,
      });
    }
  }
  return { sheets, regions };
}

/** A row per specification section (its PDF's key where one is stored), and a row per facet of each. */
function sectionRows(
  ctx: FileContext,
  realSections: { section: ExtractionResult['specifications'][number]; pdfKey: string | null }[],
): { sections: SpecSectionRecord[]; facets: FacetRecord[] } {
  const sections: SpecSectionRecord[] = [];
  const facets: FacetRecord[] = [];
  for (const [index, { section, pdfKey }] of realSections.entries()) {
    const specificationId = contentIds.section(ctx.fileId, index);
    sections.push({
      projectId: ctx.projectId,
      specificationId,
      specId: ctx.documentId,
      ...fileFieldsOf(ctx),
      classification: ctx.classification,
      sectionIndex: index,
      sectionNumber: section.sectionNumber,
      sectionTitle: section.sectionTitle,
      pageStart: section.pageStart,
      pageEnd: section.pageEnd,
      textLength: section.textLength,
      facetCount: section.facets.length,
      pdfPath: pdfKey,
    });
    for (const [facetIndex, facet] of section.facets.entries()) {
      facets.push({
        projectId: ctx.projectId,
        specificationId,
        facetId: contentIds.facet(ctx.fileId, index, facetIndex),
        facetIndex,
        facetKey: facet.facetKey,
        facetKind: facet.facetKind,
        facetLabel: facet.facetLabel,
        coverageKind: facet.coverageKind,
        facetText: facet.facetText,
        pageStart: facet.pageStart,
        pageEnd: facet.pageEnd,
      });
    }
  }
  return { sections, facets };
}

/** The passages (search sources) of one file's rows and of its pages that are neither sheets nor sections. */
export function contentPassages(
  ctx: FileContext,
  rows: Pick<FileContent, 'sheets' | 'regions' | 'sections' | 'facets'>,
  documentPages: DocumentPageText[],
  pageLines?: (pageNumber: number) => string[],
): Passage[] {
  return fileSources({
    projectId: ctx.projectId,
    documentId: ctx.documentId,
    fileId: ctx.fileId,
    fileName: ctx.fileName,
    classification: ctx.classification,
    sheetTitles: new Map(rows.sheets.map((sheet) => [sheet.pageNumber, sheet.sheetTitle])),
    regions: rows.regions,
    sections: rows.sections,
    facets: rows.facets,
    documentPages,
    ...(pageLines ? { pageLines } : {}),
  });
}
