import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { addendumPdf, drawingSheetPdf, largePdf, specificationPdf } from '../../test/fixtures/pdfs.ts';

/**
 * A folder of generated PDFs as a construction team would have it: a specification section, two
 * drawing sheets, an addendum, and (optionally) a file large enough to upload in parts under the
 * test stack's 6 MiB multipart threshold.
 */
export async function pdfFolder(options: { large?: boolean } = {}): Promise<string> {
  const folder = join(mkdtempSync(join(tmpdir(), 'psa-dx-')), 'bid-set');
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, 'spec-09-29-00.pdf'), await specificationPdf());
  writeFileSync(join(folder, 'A-101.pdf'), await drawingSheetPdf('A-101', 'FIRST FLOOR PLAN'));
  writeFileSync(join(folder, 'A-501.pdf'), await drawingSheetPdf('A-501', 'ROOF DETAILS'));
  writeFileSync(join(folder, 'addendum-02.pdf'), await addendumPdf());
  if (options.large) writeFileSync(join(folder, 'spec-large.pdf'), await largePdf(7 * 1024 * 1024));
  return folder;
}
