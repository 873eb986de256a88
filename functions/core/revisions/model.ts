import { z } from 'zod';
import { RevisionSchema } from '../../engine/model.ts';

/**
 * What revision matching reads of a drawing sheet and what it says of a new one. Plain values: the
 * pipeline fills them from the sheet it extracted (`SheetEntity` fields) and the sheets the project holds.
 */

/**
 * A sample of a sheet's printed words (content-fingerprint.ts): the smallest hashes of its word shingles.
 * Small enough to store with the sheet (at most FINGERPRINT_SIZE numbers), and two sheets' samples estimate
 * how much of their text they share.
 */
export const ContentFingerprintSchema = z.object({
  /** Distinct 32-bit hashes of the sheet's shingles, ascending: the `size` smallest of them. */
  hashes: z.array(z.number().int().min(0)),
  /** How many distinct shingles the sheet printed (the sample holds all of them when fewer than `size`). */
  shingleCount: z.number().int().min(0),
  /** The sample's capacity; two fingerprints compare over the smaller one. */
  size: z.number().int().min(1),
});
export type ContentFingerprint = z.infer<typeof ContentFingerprintSchema>;

export const SheetForMatchingSchema = z.object({
  /** The caller's id of the sheet (a `sheetId`, or an index into the upload). */
  id: z.string(),
  /** As read (and reconciled across the set); null when none was read. May hold OCR look-alikes. */
  sheetNumber: z.string().nullable(),
  /**
   * 0..1, how sure the reading is of the number (the engine's sheet `confidence`): high where the number is
   * printed in the title block's number field, low for a number taken from elsewhere on the sheet.
   */
  numberConfidence: z.number().min(0).max(1),
  sheetTitle: z.string().nullable(),
  /** The NCS designator of the sheet's discipline (`A`, `S`, ...), null when unknown. */
  disciplineCode: z.string().nullable(),
  revisions: z.array(RevisionSchema),
  pageSize: z.object({ width: z.number(), height: z.number() }),
  fileName: z.string(),
  fingerprint: ContentFingerprintSchema,
});
export type SheetForMatching = z.infer<typeof SheetForMatchingSchema>;

export const NUMBER_AGREEMENTS = ['equal', 'equalFolded', 'different', 'unknown'] as const;
export type NumberAgreement = (typeof NUMBER_AGREEMENTS)[number];

export const REVISION_ROW_RELATIONS = ['extends', 'same', 'lacksOldRows', 'unknown'] as const;
export type RevisionRowRelation = (typeof REVISION_ROW_RELATIONS)[number];

export const MatchEvidenceSchema = z.object({
  /**
   * equal: the same number as printed (case, spaces and dash kinds aside); equalFolded: the same once
   * separators and OCR look-alikes (0/O, 1/I/l, 5/S, 8/B) are folded; unknown: one of them has no number.
   */
  number: z.enum(NUMBER_AGREEMENTS),
  /** The lower of the two readings' number confidences: the number's evidence counts in proportion. */
  numberConfidence: z.number(),
  /** 0..1 agreement of the titles' words; null when one of them has no title. */
  titleSimilarity: z.number().nullable(),
  /**
   * 0..1 share of their distinctive printed text the two sheets have in common (what the set prints on most
   * of its sheets, its title block and general notes, counts for little); null when one of them printed
   * too few words to compare.
   */
  contentSimilarity: z.number().nullable(),
  /** The highest content similarity either sheet has with another sheet of its own set: what two different
   * sheets of these sets share. */
  siblingSimilarity: z.number(),
  /** extends: the new sheet prints every revision row of the old one and a later one. */
  revisionRows: z.enum(REVISION_ROW_RELATIONS),
  sameDiscipline: z.boolean().nullable(),
  samePageSize: z.boolean(),
  /**
   * Reported, not weighed: a file renamed between issues is common (matching on file names is what turns a
   * revised sheet into a new drawing), and one file name holds every sheet of a set.
   */
  sameFileName: z.boolean(),
});
export type MatchEvidence = z.infer<typeof MatchEvidenceSchema>;

export const RevisionMatchSchema = z.object({
  /** The new sheet's id. */
  sheetId: z.string(),
  /** The sheet of the project it revises; null when it is a sheet the project did not hold. */
  previousSheetId: z.string().nullable(),
  /**
   * 0..1, how sure the match is of what it says: that the new sheet revises `previousSheetId`, or, when that
   * is null, that it revises none of the project's sheets.
   */
  confidence: z.number(),
  /** The evidence for the matched pair, or for the best candidate refused; null when the project holds none. */
  evidence: MatchEvidenceSchema.nullable(),
});
export type RevisionMatch = z.infer<typeof RevisionMatchSchema>;
