import type { NormalizedData } from '../../engine/model.ts';
import type { Page } from '../pagination/page.ts';
import type { OwnedProjectRef } from '../projects/model.ts';
import type { DocumentRecord, FacetRecord, RegionRecord, SheetRecord, SpecSectionRecord } from './model.ts';

export interface RegionFilter {
  sheetIds?: string[];
  fileId?: string;
  fileName?: string;
  classification?: string;
  pageNumber?: number;
  regionType?: string;
  drawingType?: string;
  layoutType?: string;
}

export interface SectionFilter {
  fileId?: string;
  /** Document (file) of the sections: the specification document of the sections listing. */
  specId?: string;
  fileName?: string;
  classification?: string;
  sectionNumber?: string;
  sectionNumbers?: string[];
  pageStart?: number;
  pageEnd?: number;
}

export interface SheetFilter {
  fileId?: string;
  fileName?: string;
  sheetNumber?: string;
  discipline?: string;
  /** Superseded sheets (`supersededBy` set) are listed too; by default only current ones are. */
  includeSuperseded?: boolean;
}

export interface DocumentFilter {
  classification?: string;
  fileName?: string;
}

export interface Paged<T> extends Page<T> {
  total: number;
}

/** Reads a project's content; every method takes the owned project, so ownership is checked first. */
export interface ContentReader {
  regions(
    project: OwnedProjectRef,
    filter: RegionFilter,
    options: { limit: number; position: unknown | null },
  ): Promise<Paged<RegionRecord>>;
  sheets(
    project: OwnedProjectRef,
    filter: SheetFilter,
    options: { limit: number; position: unknown | null },
  ): Promise<Paged<SheetRecord>>;
  sections(
    project: OwnedProjectRef,
    filter: SectionFilter,
    options: { limit: number; position: unknown | null },
  ): Promise<Paged<SpecSectionRecord>>;
  /** The facets of several sections (a page of a listing), by section id, in facet order. */
  facetsOfSections(
    project: OwnedProjectRef,
    sections: SpecSectionRecord[],
  ): Promise<Map<string, FacetRecord[]>>;
  documents(
    project: OwnedProjectRef,
    filter: DocumentFilter,
    options: { limit: number; position: unknown | null },
  ): Promise<Paged<DocumentRecord>>;
  document(project: OwnedProjectRef, documentId: string): Promise<DocumentRecord | null>;
  sheetExists(project: OwnedProjectRef, sheetId: string): Promise<boolean>;
  /** Section numbers referenced by the regions of these sheets. */
  sectionNumbersReferencedBy(project: OwnedProjectRef, sheetIds: string[]): Promise<string[]>;
}

/** The regions a repair job normalizes (normalizedData missing or of an older schema version). */
export interface RegionNormalizationStore {
  documents(projectId: string): Promise<DocumentRecord[]>;
  countRegionsToNormalize(projectId: string, fileId: string): Promise<number>;
  regionsToNormalize(projectId: string, fileId: string): Promise<RegionRecord[]>;
  /** The file's sheets (page, printed number) and view regions (with their stored view numbers). */
  fileLayout(
    projectId: string,
    fileId: string,
  ): Promise<{
    sheets: { pageNumber: number; sheetNumber: string | null }[];
    views: { pageNumber: number; regionIndex: number; viewNumber: string | null }[];
  }>;
  /** Counts the file's rows again into its document's content summary (the totals read those). */
  recountFile(projectId: string, documentId: string, fileId: string): Promise<void>;
  /** Sets one region's normalizedData; a region deleted meanwhile stays deleted. */
  saveNormalizedData(
    projectId: string,
    region: Pick<RegionRecord, 'fileId' | 'pageNumber' | 'regionIndex'>,
    data: NormalizedData,
  ): Promise<void>;
}
