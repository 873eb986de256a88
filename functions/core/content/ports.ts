import type { Page } from '../pagination/page.ts';
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

export interface ContentReader {
  regions(
    projectId: string,
    filter: RegionFilter,
    options: { limit: number; position: unknown | null },
  ): Promise<Paged<RegionRecord>>;
  sheets(
    projectId: string,
    filter: SheetFilter,
    options: { limit: number; position: unknown | null },
  ): Promise<Paged<SheetRecord>>;
  sections(
    projectId: string,
    filter: SectionFilter,
    options: { limit: number; position: unknown | null },
  ): Promise<Paged<SpecSectionRecord>>;
  facetsOf(projectId: string, section: SpecSectionRecord): Promise<FacetRecord[]>;
  documents(
    projectId: string,
    filter: DocumentFilter,
    options: { limit: number; position: unknown | null },
  ): Promise<Paged<DocumentRecord>>;
  document(projectId: string, documentId: string): Promise<DocumentRecord | null>;
  sheetExists(projectId: string, sheetId: string): Promise<boolean>;
  /** Section numbers referenced by the regions of these sheets. */
  sectionNumbersReferencedBy(projectId: string, sheetIds: string[]): Promise<string[]>;
}
