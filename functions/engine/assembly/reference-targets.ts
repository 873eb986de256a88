/**
 * Callouts resolved within one file: each sheet reference gets the page of the sheet it names and, when its
 * detail number is the number of one of that sheet's views, the view's region. References to sheets the file
 * does not hold stay, with a null target (another file of the project may hold them).
 */
import type { NormalizedData, Sheet, SheetReference } from '../model.ts';

/** Sheet numbers compare without separators (`A-200` and `A200` name the same sheet in practice). */
const sheetKey = (normalized: string): string => normalized.replace(/[-.\s]/g, '');

/** What resolving a reference needs to know of a file: its sheets' numbers and their views' numbers. */
export interface FileSheets {
  pageNumber: number;
  sheetNumberNormalized: string | null;
  views: { viewNumber: string | null; regionId: string }[];
}

/** The target of a reference among a file's sheets (null when the file has no sheet of that number). */
export const referenceTargets = (sheets: readonly FileSheets[]) => {
  const byNumber = new Map<string, FileSheets>();
  for (const sheet of sheets) {
    if (sheet.sheetNumberNormalized && !byNumber.has(sheetKey(sheet.sheetNumberNormalized)))
      byNumber.set(sheetKey(sheet.sheetNumberNormalized), sheet);
  }
  return (reference: SheetReference): SheetReference['target'] => {
    const sheet = byNumber.get(sheetKey(reference.sheetNormalized));
    if (!sheet) return null;
    const view = reference.detail
      ? sheet.views.find(
          (candidate) => candidate.viewNumber?.toUpperCase() === reference.detail?.toUpperCase(),
        )
      : undefined;
    return { pageNumber: sheet.pageNumber, regionId: view?.regionId ?? null };
  };
};

export const resolveReferenceTargets = (sheets: readonly Sheet[]): Sheet[] => {
  const targetOf = referenceTargets(
    sheets.map((sheet) => ({
      pageNumber: sheet.pageNumber,
      sheetNumberNormalized: sheet.sheetNumberNormalized,
      views: sheet.regions
        .filter((region) => region.regionType === 'view')
        .map((region) => ({ viewNumber: region.normalizedData.viewNumber, regionId: region.regionId })),
    })),
  );
  return sheets.map((sheet) => ({
    ...sheet,
    regions: sheet.regions.map((region) => ({
      ...region,
      normalizedData: withTargets(region.normalizedData, targetOf),
    })),
  }));
};

/** The normalized data with each sheet reference's target set. */
export const withTargets = (
  data: NormalizedData,
  targetOf: (reference: SheetReference) => SheetReference['target'],
): NormalizedData => ({
  ...data,
  sheetReferences: data.sheetReferences.map((reference) => ({ ...reference, target: targetOf(reference) })),
});
