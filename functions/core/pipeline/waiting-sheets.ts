import type { NormalizedData } from '../../engine/model.ts';

/**
 * The sheet keys a document's references wait for (a sheet no file of the project held when they
 * were resolved). Kept apart from the resolution itself (`project-references.ts`) so that the
 * content store can write them without loading the extraction engine.
 */

/** Sheet numbers compare without separators, as within a file (`A-200` = `A200`). */
export const referenceKey = (sheetNormalized: string) => sheetNormalized.replace(/[-.\s]/g, '').toUpperCase();

/** At most this many waiting sheet keys are kept per document (a document row stays small). */
const MAX_WAITING_KEYS = 200;

/** The sheet keys a set of regions still references without a target. */
export function waitingKeys(regions: { normalizedData: NormalizedData | null }[]): string[] {
  const keys = new Set<string>();
  for (const region of regions)
    for (const reference of region.normalizedData?.sheetReferences ?? [])
      if (!reference.target) keys.add(referenceKey(reference.sheetNormalized));
  return [...keys].sort().slice(0, MAX_WAITING_KEYS);
}
