import { NORMALIZED_DATA_SCHEMA_VERSION } from '../../engine/model.ts';
import type { RegionRecord, SheetRecord } from './model.ts';

/**
 * What one file contributes to its project's totals and to the totals of listings, stored on the
 * file's document row. It is recomputed from the file's own rows and SET (never added to), so a
 * retried write gives the same summary; project totals and listing totals sum the document rows
 * (as many as files, however many regions the project has).
 */
export interface ContentSummary {
  sheets: number;
  regions: number;
  /** Regions whose normalizedData is of `normalizedSchemaVersion` or newer. */
  normalizedRegions: number;
  normalizedSchemaVersion: number;
  sections: number;
  facets: number;
  /** Regions by `regionType`, `drawingType` (null counted under `(none)`), `layoutType`. */
  regionTypes: Record<string, number>;
  drawingTypes: Record<string, number>;
  layoutTypes: Record<string, number>;
  /** Sheets by discipline code, with the discipline's label. */
  disciplines: Record<string, { label: string; count: number }>;
  /** Regions by page number (absent from summaries written before it was counted). */
  pageNumbers?: Record<string, number>;
}

type RegionFields = Pick<RegionRecord, 'regionType' | 'drawingType' | 'layoutType' | 'pageNumber'> & {
  normalizedData?: { schemaVersion?: number } | null;
};

/** DynamoDB map keys are attribute names: never empty. */
const NO_VALUE = '(none)';

function tally(counts: Record<string, number>, value: string | null | undefined): void {
  const key = value || NO_VALUE;
  counts[key] = (counts[key] ?? 0) + 1;
}

export function summarizeContent(content: {
  sheets: Pick<SheetRecord, 'discipline'>[];
  regions: RegionFields[];
  sectionCount: number;
  facetCount: number;
}): ContentSummary {
  const pageNumbers: Record<string, number> = {};
  const summary: ContentSummary = {
    sheets: content.sheets.length,
    regions: content.regions.length,
    normalizedRegions: 0,
    normalizedSchemaVersion: NORMALIZED_DATA_SCHEMA_VERSION,
    sections: content.sectionCount,
    facets: content.facetCount,
    regionTypes: {},
    drawingTypes: {},
    layoutTypes: {},
    disciplines: {},
    pageNumbers,
  };
  for (const region of content.regions) {
    if ((region.normalizedData?.schemaVersion ?? 0) >= NORMALIZED_DATA_SCHEMA_VERSION)
      summary.normalizedRegions++;
    tally(summary.regionTypes, region.regionType);
    tally(summary.drawingTypes, region.drawingType);
    tally(summary.layoutTypes, region.layoutType);
    tally(pageNumbers, String(region.pageNumber));
  }
  for (const sheet of content.sheets) {
    if (!sheet.discipline) continue;
    const entry = summary.disciplines[sheet.discipline.code] ?? { label: sheet.discipline.label, count: 0 };
    entry.count++;
    summary.disciplines[sheet.discipline.code] = entry;
  }
  return summary;
}

/** Normalized regions a summary can vouch for: none when it was counted for an older schema. */
export function currentNormalizedRegions(summary: ContentSummary): number {
  return summary.normalizedSchemaVersion >= NORMALIZED_DATA_SCHEMA_VERSION ? summary.normalizedRegions : 0;
}

/** The region filters a summary can count exactly: file-level ones and at most one region attribute. */
export type RegionAttribute = 'regionType' | 'drawingType' | 'layoutType' | 'pageNumber';

/** The regions a summary counts for one attribute value (all with none); null when it cannot tell. */
export function summaryRegionCount(
  summary: ContentSummary,
  attribute: { name: RegionAttribute; value: string } | null,
): number | null {
  if (!attribute) return summary.regions;
  const counts = {
    regionType: summary.regionTypes,
    drawingType: summary.drawingTypes,
    layoutType: summary.layoutTypes,
    pageNumber: summary.pageNumbers,
  }[attribute.name];
  return counts ? (counts[attribute.value] ?? 0) : null;
}
