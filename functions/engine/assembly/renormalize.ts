/**
 * normalizedData again for a region stored earlier (a repair job): from the same page extracted again
 * when the engine finds the same region there, from the region's stored text otherwise.
 */

import { engineRegionId } from '../drawings/region-draft.ts';
import { DRAWING_AREA_LABEL } from '../drawings/regions.ts';
import { normalizeSheetNumber } from '../drawings/sheet-number.ts';
import { fromDisplayBox, iou } from '../geometry.ts';
import type { DisplayBox, NormalizedData, Region } from '../model.ts';
import { buildNormalizedData, parseNumberedEntries } from './normalize.ts';
import type { FileSheets } from './reference-targets.ts';

/** A fresh region is the stored one when their types agree and their boxes overlap this much. */
const SAME_REGION_IOU = 0.8;

const NUMBERED_TYPES: ReadonlySet<string> = new Set(['keynotes', 'generalNotes', 'notes']);

export interface StoredRegion {
  regionType: string;
  label: string;
  text: string;
  /** As printed (the set-level decision the page alone cannot make); empty when none was found. */
  sheetNumber: string;
  displayBox: DisplayBox;
}

export type Renormalized = { data: NormalizedData; from: 'page' | 'text' };

/**
 * Input: the stored region, and the regions the engine finds on its page today (empty when the page
 * could not be extracted again).
 * Output: its normalizedData, and whether it came from the page or from the text alone.
 * Steps: the fresh region of the same type with the largest box overlap (at least 0.8 IoU) gives
 * everything the drawing holds (callout bubbles, schedule cells, revision rows); the sheet number is
 * the stored one, and a titled drawing area keeps the sheet title the set gave it. Without a match,
 * only what the text says: references, specification sections, scale, numbered notes.
 */
export function renormalizeRegion(stored: StoredRegion, fresh: readonly Region[]): Renormalized {
  const sheetNumber = stored.sheetNumber || null;
  const box = fromDisplayBox(stored.displayBox);
  let best: Region | null = null;
  let bestOverlap = SAME_REGION_IOU;
  for (const candidate of fresh) {
    if (candidate.regionType !== stored.regionType) continue;
    const overlap = iou(box, fromDisplayBox(candidate.displayBox));
    if (overlap >= bestOverlap) {
      best = candidate;
      bestOverlap = overlap;
    }
  }
  if (best) {
    const titledArea = best.label === DRAWING_AREA_LABEL && stored.label !== DRAWING_AREA_LABEL;
    return {
      from: 'page',
      data: {
        ...best.normalizedData,
        sheetNumber: sheetNumber ? normalizeSheetNumber(sheetNumber) : null,
        ...(titledArea ? { viewTitle: stored.label } : {}),
      },
    };
  }
  return {
    from: 'text',
    data: buildNormalizedData({
      text: stored.text,
      sheetNumber,
      keynotes: NUMBERED_TYPES.has(stored.regionType) ? parseNumberedEntries(stored.text.split('\n')) : [],
    }),
  };
}

/**
 * A file's sheets and views as stored, for resolving references again: the sheet number of each page
 * (as printed) and the view number of each view region (by its position on the page).
 */
export function storedFileSheets(
  sheets: readonly { pageNumber: number; sheetNumber: string | null }[],
  views: readonly { pageNumber: number; regionIndex: number; viewNumber: string | null }[],
): FileSheets[] {
  return sheets.map((sheet) => ({
    pageNumber: sheet.pageNumber,
    sheetNumberNormalized: sheet.sheetNumber ? normalizeSheetNumber(sheet.sheetNumber) : null,
    views: views
      .filter((view) => view.pageNumber === sheet.pageNumber)
      .sort((a, b) => a.regionIndex - b.regionIndex)
      .map((view) => ({
        viewNumber: view.viewNumber,
        regionId: engineRegionId(view.pageNumber, 'view', view.regionIndex),
      })),
  }));
}
