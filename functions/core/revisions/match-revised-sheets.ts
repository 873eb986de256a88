import { bestAssignment } from './assignment.ts';
import { contentSimilarity, type PlacedFingerprint, setShingles } from './content-fingerprint.ts';
import type { MatchEvidence, RevisionMatch, SheetForMatching } from './model.ts';
import { revisionRowRelation } from './revision-order.ts';
import { sheetNumberAgreement } from './sheet-number-agreement.ts';
import { titleSimilarity } from './title-similarity.ts';

/**
 * Which of the project's sheets each sheet of a new upload revises.
 * Input: the project's current drawing sheets and the sheets of one upload (a bulletin of a few sheets or a
 * whole reissued set), as plain values.
 * Output: per uploaded sheet, in order, the sheet it revises or null, a confidence, and the evidence.
 * Steps: every (new, held) pair is scored as log-odds from its evidence (LOG_ODDS); pairs whose odds favour
 * a match are candidates; the upload is assigned one-to-one, maximizing the summed log-odds (two sheets of
 * one upload are two sheets, and so are two sheets the project holds side by side); a sheet's confidence is
 * its chosen outcome's share among its candidates and "none" (a softmax of the log-odds, "none" at 0).
 */

/**
 * The weights of the evidence, in log-odds. The sheet number is what a set is organized by (NCS: designator,
 * sheet type, sequence) and a revision keeps it, so it decides when it is read surely on both sides (its weight
 * scales with the readings' confidence: a number read outside the title block's number field may be a callout's);
 * a title is often reworded in a revision, so it only leans; the content decides when a number is missing or
 * unsure, and only by what it shares beyond what any two sheets of these sets share (the sibling similarity:
 * sheets of one set print the same title block and notes). Distinctive text nearly all shared outweighs even a
 * different number (a misread or renumbered sheet). Revision rows lean little: every sheet of an issue prints
 * the same rows.
 */
const LOG_ODDS = {
  prior: -3,
  number: { equal: 5.5, equalFolded: 4, different: -5.5, unknown: 0 },
  /** Per unit of title similarity above (below) one half. */
  title: 3,
  /** Per unit of content similarity above the sibling similarity (at least CONTENT_FLOOR), clamped. */
  content: 10,
  contentClamp: { low: -3, high: 8 },
  revisionRows: { extends: 0.75, same: 0.25, lacksOldRows: -0.75, unknown: 0 },
  otherDiscipline: -1.5,
  otherPageSize: -1,
} as const;

/** Number confidences from which a reading counts fully, and under which it counts for nothing. */
const SURE_NUMBER = 0.7;
const UNSURE_NUMBER = 0.2;

/** Sheets that share less than this are unrelated whatever their siblings share. */
const CONTENT_FLOOR = 0.15;
/** Page sizes within this share of each other are one size (a sheet reprinted from another PDF writer). */
const PAGE_SIZE_TOLERANCE = 0.02;

const samePageSize = (first: SheetForMatching['pageSize'], second: SheetForMatching['pageSize']): boolean => {
  const close = (a: number, b: number) => Math.abs(a - b) <= PAGE_SIZE_TOLERANCE * Math.max(a, b);
  // A sheet may be stored turned a quarter: its long side is its long side either way.
  const [a0, a1] = [first.width, first.height].sort((x, y) => x - y) as [number, number];
  const [b0, b1] = [second.width, second.height].sort((x, y) => x - y) as [number, number];
  return close(a0, b0) && close(a1, b1);
};

/** The log-odds that `evidence` is one sheet printed twice. */
export const matchLogOdds = (evidence: MatchEvidence): number => {
  const reliability = Math.max(
    0,
    Math.min(1, (evidence.numberConfidence - UNSURE_NUMBER) / (SURE_NUMBER - UNSURE_NUMBER)),
  );
  let logOdds = LOG_ODDS.prior + LOG_ODDS.number[evidence.number] * reliability;
  if (evidence.titleSimilarity !== null) logOdds += LOG_ODDS.title * (evidence.titleSimilarity - 0.5);
  if (evidence.contentSimilarity !== null) {
    const baseline = Math.max(CONTENT_FLOOR, evidence.siblingSimilarity);
    const { low, high } = LOG_ODDS.contentClamp;
    logOdds += Math.min(high, Math.max(low, LOG_ODDS.content * (evidence.contentSimilarity - baseline)));
  }
  logOdds += LOG_ODDS.revisionRows[evidence.revisionRows];
  if (evidence.sameDiscipline === false) logOdds += LOG_ODDS.otherDiscipline;
  if (!evidence.samePageSize) logOdds += LOG_ODDS.otherPageSize;
  return logOdds;
};

/** Per sheet, the highest content similarity with another sheet of its own set. */
const siblingSimilarities = (placed: readonly PlacedFingerprint[]): number[] => {
  const best = placed.map(() => 0);
  for (let i = 0; i < placed.length; i++)
    for (let j = i + 1; j < placed.length; j++) {
      const similarity =
        contentSimilarity(placed[i] as PlacedFingerprint, placed[j] as PlacedFingerprint) ?? 0;
      best[i] = Math.max(best[i] as number, similarity);
      best[j] = Math.max(best[j] as number, similarity);
    }
  return best;
};

export const matchRevisedSheets = (input: {
  held: readonly SheetForMatching[];
  uploaded: readonly SheetForMatching[];
}): RevisionMatch[] => {
  const { held, uploaded } = input;
  const heldSet = setShingles(held.map((sheet) => sheet.fingerprint));
  const uploadedSet = setShingles(uploaded.map((sheet) => sheet.fingerprint));
  const placedHeld = held.map((sheet) => ({ fingerprint: sheet.fingerprint, set: heldSet }));
  const placedUploaded = uploaded.map((sheet) => ({ fingerprint: sheet.fingerprint, set: uploadedSet }));
  const heldSiblings = siblingSimilarities(placedHeld);
  const uploadedSiblings = siblingSimilarities(placedUploaded);

  const evidence: MatchEvidence[][] = uploaded.map((sheet, i) =>
    held.map((previous, j) => ({
      number: sheetNumberAgreement(previous.sheetNumber, sheet.sheetNumber),
      numberConfidence: Math.min(previous.numberConfidence, sheet.numberConfidence),
      titleSimilarity: titleSimilarity(previous.sheetTitle, sheet.sheetTitle),
      contentSimilarity: contentSimilarity(
        placedUploaded[i] as PlacedFingerprint,
        placedHeld[j] as PlacedFingerprint,
      ),
      siblingSimilarity: Math.max(uploadedSiblings[i] ?? 0, heldSiblings[j] ?? 0),
      revisionRows: revisionRowRelation(previous.revisions, sheet.revisions),
      sameDiscipline:
        previous.disciplineCode && sheet.disciplineCode
          ? previous.disciplineCode.toUpperCase() === sheet.disciplineCode.toUpperCase()
          : null,
      samePageSize: samePageSize(previous.pageSize, sheet.pageSize),
      sameFileName: previous.fileName.toLowerCase() === sheet.fileName.toLowerCase(),
    })),
  );
  const logOdds = evidence.map((row) => row.map(matchLogOdds));
  const assigned = bestAssignment(logOdds);

  return uploaded.map((sheet, i) => {
    const odds = logOdds[i] ?? [];
    const partition = 1 + odds.reduce((sum, value) => sum + Math.exp(value), 0);
    const column = assigned[i] ?? null;
    const best = odds.reduce<number | null>(
      (at, value, j) => (at === null || value > (odds[at] ?? -Infinity) ? j : at),
      null,
    );
    const shown = column ?? best;
    return {
      sheetId: sheet.id,
      previousSheetId: column === null ? null : (held[column]?.id ?? null),
      confidence: column === null ? 1 / partition : Math.exp(odds[column] ?? 0) / partition,
      evidence: shown === null ? null : (evidence[i]?.[shown] ?? null),
    };
  });
};
