import type { RegionRecord, SpecSectionRecord } from '../../core/content/model.ts';
import type { FileContent } from '../../core/pipeline/ports.ts';
import { entities } from './table.ts';

type Item = Record<string, unknown>;

/** A region as stored: its row, and its entries in the filter indexes. */
export function regionItem(projectId: string, region: RegionRecord): Item {
  return entities.region.format(
    {
      ...entities.region.key(projectId, region.fileId, region.pageNumber, region.regionIndex),
      ...entities.region.indexes.filters(projectId, region),
    },
    {
      ...region,
    },
  );
}

/** A specification section as stored. */
export function specSectionItem(projectId: string, fileId: string, section: SpecSectionRecord): Item {
  return entities.specSection.format(
    {
      ...entities.specSection.key(projectId, fileId, section.sectionIndex),
    },
    {
      ...section,
    },
  );
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
    ...content.sheets.map((sheet) =>
      entities.sheet.format(
        {
          ...entities.sheet.key(projectId, fileId, sheet.pageNumber),
        },
        {
          ...sheet,
        },
      ),
    ),
    ...content.regions.map((region) => regionItem(projectId, region)),
    ...content.facets.map((facet) =>
      entities.specFacet.format(
        {
          ...entities.specFacet.key(
            projectId,
            fileId,
            sectionIndexes.get(facet.specificationId) ?? 0,
            facet.facetIndex,
          ),
        },
        {
          ...facet,
        },
      ),
    ),
  ];
}
