import type { RegionRecord, SpecSectionRecord } from '../../core/content/model.ts';
import type { FileContent } from '../../core/pipeline/ports.ts';
import { ENTITY_VERSION, keys } from './table.ts';

type Item = Record<string, unknown>;

/** A region as stored: its row, and its entries in the filter indexes. */
export function regionItem(projectId: string, region: RegionRecord): Item {
  return {
    ...keys.region(projectId, region.fileId, region.pageNumber, region.regionIndex),
    ...keys.regionIndexKeys(projectId, region),
    entity: 'region',
    v: ENTITY_VERSION.region,
    ...region,
  };
}

/** A specification section as stored. */
export function specSectionItem(projectId: string, fileId: string, section: SpecSectionRecord): Item {
  return {
    ...keys.specSection(projectId, fileId, section.sectionIndex),
    entity: 'specSection',
    v: ENTITY_VERSION.specSection,
    ...section,
  };
}

/** The rows of one file that point to no artifact still being stored: its sheets, regions and facets. */
export function pageRowItems(
  projectId: string,
  fileId: string,
  content: Pick<FileContent, 'sheets' | 'regions' | 'sections' | 'facets'>,
): Item[] {
  const sectionIndexes = new Map(
    content.sections.map((section) => [section.specificationId, section.sectionIndex]),
  );
  return [
    ...content.sheets.map((sheet) => ({
      ...keys.sheet(projectId, fileId, sheet.pageNumber),
      entity: 'sheet',
      v: ENTITY_VERSION.sheet,
      ...sheet,
    })),
    ...content.regions.map((region) => regionItem(projectId, region)),
    ...content.facets.map((facet) => ({
      ...keys.specFacet(projectId, fileId, sectionIndexes.get(facet.specificationId) ?? 0, facet.facetIndex),
      entity: 'specFacet',
      v: ENTITY_VERSION.specFacet,
      ...facet,
    })),
  ];
}
