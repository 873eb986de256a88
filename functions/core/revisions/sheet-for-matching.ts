import type { Sheet } from '../../engine/model.ts';
import { contentFingerprint } from './content-fingerprint.ts';
import type { ContentFingerprint, SheetForMatching } from './model.ts';

type MatchedFields = Pick<
  Sheet,
  'sheetNumber' | 'confidence' | 'sheetTitle' | 'discipline' | 'revisions' | 'pageSize'
>;

const withFingerprint = (
  input: { id: string; sheet: MatchedFields; fileName: string },
  fingerprint: ContentFingerprint,
): SheetForMatching => ({
  id: input.id,
  sheetNumber: input.sheet.sheetNumber,
  numberConfidence: input.sheet.sheetNumber ? Math.max(0, Math.min(1, input.sheet.confidence)) : 0,
  sheetTitle: input.sheet.sheetTitle,
  disciplineCode: input.sheet.discipline?.code ?? null,
  revisions: input.sheet.revisions,
  pageSize: { width: input.sheet.pageSize.width, height: input.sheet.pageSize.height },
  fileName: input.fileName,
  fingerprint,
});

/**
 * What matching reads of an extracted sheet: its identification as the engine assembled it and the
 * fingerprint of its printed lines (the page's text lines the pipeline holds at assembly).
 */
export const sheetForMatching = (input: {
  id: string;
  sheet: MatchedFields;
  fileName: string;
  lines: readonly string[];
}): SheetForMatching => withFingerprint(input, contentFingerprint(input.lines));

/**
 * The same of a stored sheet, with the fingerprint stored on its row at assembly. A row stored before
 * fingerprints were has none: an empty one, so that it is compared by number, title and rows alone.
 */
export const storedSheetForMatching = (input: {
  id: string;
  sheet: MatchedFields;
  fileName: string;
  fingerprint: ContentFingerprint | null;
}): SheetForMatching => withFingerprint(input, input.fingerprint ?? contentFingerprint([]));
