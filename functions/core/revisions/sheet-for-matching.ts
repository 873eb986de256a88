import type { Sheet } from '../../engine/model.ts';
import { contentFingerprint } from './content-fingerprint.ts';
import type { SheetForMatching } from './model.ts';

/**
 * What matching reads of an extracted sheet: its identification as the engine assembled it and the
 * fingerprint of its printed lines (the page's text lines the pipeline holds at assembly).
 */
export const sheetForMatching = (input: {
  id: string;
  sheet: Pick<Sheet, 'sheetNumber' | 'confidence' | 'sheetTitle' | 'discipline' | 'revisions' | 'pageSize'>;
  fileName: string;
  lines: readonly string[];
}): SheetForMatching => ({
  id: input.id,
  sheetNumber: input.sheet.sheetNumber,
  numberConfidence: input.sheet.sheetNumber ? Math.max(0, Math.min(1, input.sheet.confidence)) : 0,
  sheetTitle: input.sheet.sheetTitle,
  disciplineCode: input.sheet.discipline?.code ?? null,
  revisions: input.sheet.revisions,
  pageSize: { width: input.sheet.pageSize.width, height: input.sheet.pageSize.height },
  fileName: input.fileName,
  fingerprint: contentFingerprint(input.lines),
});
