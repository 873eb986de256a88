/**
 * Precision and recall of revision matching, per uploaded sheet: the sheet it was matched to against the
 * sheet it revises (null for a sheet the project did not hold).
 */
export interface MatchCounts {
  uploaded: number;
  /** Matched to the sheet it revises. */
  truePositives: number;
  /** Matched to a sheet it does not revise (another sheet, or any sheet when it revises none). */
  falsePositives: number;
  /** Revises a sheet of the project and was not matched to it. */
  falseNegatives: number;
  precision: number;
  recall: number;
}

const withRates = (counts: Omit<MatchCounts, 'precision' | 'recall'>): MatchCounts => {
  const matched = counts.truePositives + counts.falsePositives;
  const revising = counts.truePositives + counts.falseNegatives;
  return {
    ...counts,
    // Nothing matched is no wrong match; nothing to find is nothing missed.
    precision: matched > 0 ? counts.truePositives / matched : 1,
    recall: revising > 0 ? counts.truePositives / revising : 1,
  };
};

export const scoreMatches = (
  pairs: readonly { truth: string | null; matched: string | null }[],
): MatchCounts =>
  withRates({
    uploaded: pairs.length,
    truePositives: pairs.filter((pair) => pair.truth !== null && pair.matched === pair.truth).length,
    falsePositives: pairs.filter((pair) => pair.matched !== null && pair.matched !== pair.truth).length,
    falseNegatives: pairs.filter((pair) => pair.truth !== null && pair.matched !== pair.truth).length,
  });

export const sumCounts = (all: readonly MatchCounts[]): MatchCounts =>
  withRates({
    uploaded: all.reduce((sum, counts) => sum + counts.uploaded, 0),
    truePositives: all.reduce((sum, counts) => sum + counts.truePositives, 0),
    falsePositives: all.reduce((sum, counts) => sum + counts.falsePositives, 0),
    falseNegatives: all.reduce((sum, counts) => sum + counts.falseNegatives, 0),
  });
