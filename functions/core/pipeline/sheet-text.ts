import type { Sheet } from '../../engine/index.ts';
import type { DocumentPageText } from '../search/sources.ts';

type Line = DocumentPageText['lines'][number];

/** Letters and digits only, lower-cased: how a line is looked for in a region's text. */
const normalized = (text: string) => text.toLowerCase().replace(/[^a-z0-9]+/g, '');

/**
 * The text of each drawing sheet that no region holds: a plan's street names and callout text, a
 * title printed across the sheet, notes the engine did not box, the drawing inside a view (whose
 * region text is its title). Regions are what a user reads, but a word printed on a sheet must still
 * be found: these lines become the sheet's page source (its `documents/{documentId}/pages/{n}` URI),
 * searched beside its regions. A line is held by a region when the region's text contains it.
 */
export function sheetTextOutsideRegions(
  sheets: Sheet[],
  linesOf: (pageNumber: number) => Line[],
): DocumentPageText[] {
  const out: DocumentPageText[] = [];
  for (const sheet of sheets) {
    const held = sheet.regions.map((region) => normalized(region.text)).join('|');
    const outside = linesOf(sheet.pageNumber).filter((line) => {
      const key = normalized(line.text);
      return key.length > 0 && !held.includes(key);
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
