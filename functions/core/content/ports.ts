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
  facetsOf(project: OwnedProjectRef, section: SpecSectionRecord): Promise<FacetRecord[]>;
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
