/**
 * Label-free consistency of a drawing set: what the set's own sheets say about the engine's reading of it.
 * Computed from an ExtractionResult alone, so any set can be judged, labelled or not:
 * - index agreement: of the sheets whose number the set's drawing index names, those whose title agrees with
 *   the index entry (the same words, ignoring order and punctuation, at least 80 % of either side's);
 * - in index: of the numbered sheets of a set that prints an index, those the index names;
 * - distinct: distinct numbers over numbered sheets (numbers name one sheet, unless the set repeats a sheet);
 * - callouts resolved: sheet references (`5/A-501`) whose sheet is in the set;
 * - titled: sheets with a title; numbered: sheets with a number;
 * - by consensus: numbers not read where the sheet prints them, but decided by the set (index, numbering run).
 */
import type { ExtractionResult } from '../../functions/engine/model.ts';

export interface Consistency {
  file: string;
  sheets: number;
  numbered: number;
  distinct: number;
  titled: number;
  inIndex: number;
  /** Numbered sheets of a set that prints a drawing index (0 without an index). */
  numberedWithIndex: number;
  indexAgree: number;
  callouts: number;
  calloutsResolved: number;
  byConsensus: number;
}

const wordsOf = (text: string): string[] =>
  text
    .toUpperCase()
    .replace(/&/g, ' & ')
    .replace(/[^A-Z0-9&]+/g, ' ')
    .split(' ')
    .filter(Boolean);

/** Two titles agree when most words of each are in the other (`PLAN - LEVEL 1` and `LEVEL 1 PLAN`). */
export const titlesAgree = (one: string, other: string): boolean => {
  const a = wordsOf(one);
  const b = wordsOf(other);
  if (!a.length || !b.length) return false;
  const inB = a.filter((word) => b.includes(word)).length;
  const inA = b.filter((word) => a.includes(word)).length;
  return inB >= 0.8 * a.length && inA >= 0.8 * b.length;
};

export const consistencyOf = (file: string, result: ExtractionResult): Consistency => {
  const sheets = result.sheets;
  const numbered = sheets.filter((sheet) => sheet.sheetNumberNormalized);
  const hasIndex = sheets.some((sheet) => sheet.identification?.indexEntry);
  const inIndex = numbered.filter((sheet) => sheet.identification?.indexEntry);
  const references = sheets.flatMap((sheet) =>
    sheet.regions.flatMap((region) => region.normalizedData.sheetReferences),
  );
  return {
    file,
    sheets: sheets.length,
    numbered: numbered.length,
    distinct: new Set(numbered.map((sheet) => sheet.sheetNumberNormalized)).size,
    titled: sheets.filter((sheet) => sheet.sheetTitle).length,
    inIndex: inIndex.length,
    numberedWithIndex: hasIndex ? numbered.length : 0,
    indexAgree: inIndex.filter((sheet) => {
      const entry = sheet.identification?.indexEntry;
      return entry && sheet.sheetTitle ? titlesAgree(sheet.sheetTitle, entry.title) : false;
    }).length,
    callouts: references.length,
    calloutsResolved: references.filter((reference) => reference.target).length,
    byConsensus: numbered.filter(
      (sheet) => sheet.identification && sheet.identification.numberSource !== 'titleBlock',
    ).length,
  };
};

export const sumConsistency = (rows: readonly Consistency[]): Consistency =>
  rows.reduce(
    (sum, row) => ({
      file: 'all',
      sheets: sum.sheets + row.sheets,
      numbered: sum.numbered + row.numbered,
      distinct: sum.distinct + row.distinct,
      titled: sum.titled + row.titled,
      inIndex: sum.inIndex + row.inIndex,
      numberedWithIndex: sum.numberedWithIndex + row.numberedWithIndex,
      indexAgree: sum.indexAgree + row.indexAgree,
      callouts: sum.callouts + row.callouts,
      calloutsResolved: sum.calloutsResolved + row.calloutsResolved,
      byConsensus: sum.byConsensus + row.byConsensus,
    }),
    {
      file: 'all',
      sheets: 0,
      numbered: 0,
      distinct: 0,
      titled: 0,
      inIndex: 0,
      numberedWithIndex: 0,
      indexAgree: 0,
      callouts: 0,
      calloutsResolved: 0,
      byConsensus: 0,
    },
  );

const ratio = (ok: number, total: number): string => (total ? `${ok}/${total}` : '-');

/** One line of figures for a file (or the sum). */
export const formatConsistency = (row: Consistency): string =>
  [
    `numbered ${ratio(row.numbered, row.sheets)}`,
    `distinct ${ratio(row.distinct, row.numbered)}`,
    `titled ${ratio(row.titled, row.sheets)}`,
    `in index ${ratio(row.inIndex, row.numberedWithIndex)}`,
    `index titles agree ${ratio(row.indexAgree, row.inIndex)}`,
    `callouts resolved ${ratio(row.calloutsResolved, row.callouts)}`,
    `by consensus ${ratio(row.byConsensus, row.numbered)}`,
  ].join(', ');
