/**
 * Callouts resolved within one file: each sheet reference gets the page of the sheet it names and, when its
 * detail number is the number of one of that sheet's views, the view's region. References to sheets the file
 * does not hold stay, with a null target (another file of the project may hold them).
 */
import type { Sheet, SheetReference } from './model.ts';

/** Sheet numbers compare without separators (`A-200` and `A200` name the same sheet in practice). */
const sheetKey = (normalized: string): string => normalized.replace(/[-.\s]/g, '');

export const resolveReferenceTargets = (sheets: readonly Sheet[]): Sheet[] => {
  const byNumber = new Map<string, Sheet>();
  for (const sheet of sheets) {
    if (sheet.sheetNumberNormalized && !byNumber.has(sheetKey(sheet.sheetNumberNormalized)))
      byNumber.set(sheetKey(sheet.sheetNumberNormalized), sheet);
  }
  const targetOf = (reference: SheetReference): SheetReference['target'] => {
    const sheet = byNumber.get(sheetKey(reference.sheetNormalized));
    if (!sheet) return null;
    const view = reference.detail
      ? sheet.regions.find(
          (region) =>
            region.regionType === 'view' &&
            region.normalizedData.viewNumber?.toUpperCase() === reference.detail?.toUpperCase(),
        )
      : undefined;
    return { pageNumber: sheet.pageNumber, regionId: view?.regionId ?? null };
  };
  return sheets.map((sheet) => ({
    ...sheet,
    regions: sheet.regions.map((region) => ({
      ...region,
      normalizedData: {
        ...region.normalizedData,
        sheetReferences: region.normalizedData.sheetReferences.map((reference) => ({
          ...reference,
          target: targetOf(reference),
        })),
      },
    })),
  }));
};
