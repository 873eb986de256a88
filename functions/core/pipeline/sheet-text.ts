import type { Sheet } from '../extraction/index.ts';
import type { DocumentPageText } from '../search/sources.ts';

type Line = DocumentPageText['lines'][number];

/**
 * The text of each drawing sheet that no region holds: a plan's street names and callout text, a
 * title printed across the sheet, notes the engine did not box. Regions are what a user reads, but a
 * word printed on a sheet must still be found: these lines become the sheet's page source (its
 * `documents/{documentId}/pages/{n}` URI), searched beside its regions.
 * A line belongs to a region when its centre is inside the region's box.
 */
export function sheetTextOutsideRegions(
  sheets: Sheet[],
  linesOf: (pageNumber: number) => Line[],
): DocumentPageText[] {
  const out: DocumentPageText[] = [];
  for (const sheet of sheets) {
    const boxes = sheet.regions.map((region) => region.displayBox);
    const outside = linesOf(sheet.pageNumber).filter((line) => {
      const x = (line.x0 + line.x1) / 2;
      const y = (line.y0 + line.y1) / 2;
      return (
        line.text.trim().length > 0 &&
        !boxes.some((box) => x >= box.left && x <= box.right && y >= box.top && y <= box.bottom)
      );
    });
    if (outside.length > 0)
      out.push({
        pageNumber: sheet.pageNumber,
        lines: outside,
        sheet: { sheetNumber: sheet.sheetNumber ?? '', sheetTitle: sheet.sheetTitle },
      });
  }
  return out;
}
