/**
 * Schedules drawn as ruled tables take the table's box: the heading and the run of horizontal rulings of one
 * length under it (the table's row lines), down to the last row line before a gap, a line of another length
 * or another region's heading. Text alone gives a schedule's box only as far as its column of lines reaches,
 * which on a wide table is a guess.
 */
import { type Box, boxOf, height } from './geometry.ts';
import type { RegionDraft } from './region-draft.ts';
import type { Ruling } from './rulings.ts';

/** Row lines of one table have the same ends within this many points. */
const SAME_END = 3;
/** A gap between row lines over this many times the heading's height ends the table. */
const MAX_ROW_GAP_HEADINGS = 8;

const sameExtent = (ruling: Ruling, other: Ruling): boolean =>
  Math.abs(ruling.from - other.from) <= SAME_END && Math.abs(ruling.to - other.to) <= SAME_END;

export const fitScheduleFrames = (drafts: RegionDraft[], rulings: readonly Ruling[]): void => {
  const headings = drafts.flatMap((draft) => (draft.titleBox ? [draft.titleBox] : []));
  const horizontals = rulings.filter((ruling) => ruling.axis === 'h').sort((a, b) => a.at - b.at);
  for (const draft of drafts) {
    const heading = draft.titleBox;
    if (draft.regionType !== 'schedule' || !heading) continue;
    const headingHeight = Math.max(4, height(heading));
    const spansHeading = (ruling: Ruling): boolean =>
      ruling.from <= heading.x0 + 1 && ruling.to >= heading.x1 - 1;
    const first = horizontals.find(
      (ruling) =>
        spansHeading(ruling) && ruling.at >= heading.y1 - 2 && ruling.at <= heading.y1 + 3 * headingHeight,
    );
    if (!first) continue;
    // The next heading under this one in the same columns ends the table.
    const nextHeadingTop = Math.min(
      Number.POSITIVE_INFINITY,
      ...headings
        .filter(
          (other) =>
            other !== heading && other.y0 > heading.y1 && other.x0 < first.to && other.x1 > first.from,
        )
        .map((other) => other.y0),
    );
    let last = first;
    for (const row of horizontals) {
      if (row.at <= last.at || !sameExtent(row, first)) continue;
      if (row.at - last.at > MAX_ROW_GAP_HEADINGS * headingHeight || row.at >= nextHeadingTop - 1) break;
      last = row;
    }
    if (last === first) continue;
    const above = horizontals.filter(
      (ruling) =>
        sameExtent(ruling, first) &&
        ruling.at < heading.y0 + 1 &&
        ruling.at >= heading.y0 - 2 * headingHeight,
    );
    const top = Math.min(heading.y0, ...above.map((ruling) => ruling.at));
    draft.box = boxOf([heading, { x0: first.from, y0: top, x1: first.to, y1: last.at } satisfies Box]);
  }
};
