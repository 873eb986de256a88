/**
 * PageResults (from one or many batches) → the ExtractionResult of the document.
 */

import { assembleSheets } from '../drawings/sheet-set.ts';
import {
  type Classification,
  EXTRACTION_SCHEMA_VERSION,
  type ExtractionResult,
  type PageClassification,
  type PageInfo,
  type PageIssue,
  type Sheet,
} from '../model.ts';
import type { PageResult } from '../pages/page.ts';
import { assembleSpecSections } from '../specifications/spec-sections.ts';

export interface AssembleOptions {
  pageCount: number;
  fileName?: string | null;
  classification?: Classification;
  elapsedMs?: number;
}

export const assembleDocument = (
  pageResults: readonly PageResult[],
  options: AssembleOptions,
): ExtractionResult => {
  const pages = [...pageResults].sort((a, b) => a.pageNumber - b.pageNumber);
  if (pages.length === 0) throw new Error('assembleDocument needs at least one page result');
  const sheets: Sheet[] = assembleSheets(pages);
  const sheetPages = new Set(sheets.map((sheet) => sheet.pageNumber));
  const specifications = assembleSpecSections(
    pages.map((page) => ({
      pageNumber: page.pageNumber,
      height: page.height,
      isSheet: sheetPages.has(page.pageNumber),
      lines: page.lines,
      spec: page.spec,
    })),
  );
  const specPages = new Set<number>();
  for (const section of specifications)
    for (let pageNumber = section.pageStart; pageNumber <= section.pageEnd; pageNumber++)
      specPages.add(pageNumber);

  const pageInfos: PageInfo[] = pages.map((page) => {
    const classification: PageClassification = sheetPages.has(page.pageNumber)
      ? 'plans'
      : specPages.has(page.pageNumber)
        ? 'specifications'
        : page.charCount > 0 || (page.ocr?.used && page.lines.length > 0)
          ? 'documents'
          : 'other';
    return {
      pageNumber: page.pageNumber,
      width: round1(page.width),
      height: round1(page.height),
      rotation: page.rotation,
      hasTextLayer: page.hasTextLayer,
      textCharCount: page.charCount,
      ocr: page.ocr,
      classification,
      isBlank: page.issue === null && page.spec.isBlank && !sheetPages.has(page.pageNumber),
      issue: page.issue,
    };
  });
  const issues: PageIssue[] = pages.flatMap((page) => (page.issue ? [page.issue] : []));
  const pageNumbers = pages.map((page) => page.pageNumber);
  return {
    schemaVersion: EXTRACTION_SCHEMA_VERSION,
    fileName: options.fileName ?? null,
    pageCount: options.pageCount,
    pageRange: { from: Math.min(...pageNumbers), to: Math.max(...pageNumbers) },
    classification: options.classification ?? classifyDocument(pages, pageInfos),
    classificationSource: options.classification ? 'given' : 'detected',
    pages: pageInfos,
    sheets,
    specifications,
    issues,
    stats: {
      elapsedMs: Math.round(options.elapsedMs ?? 0),
      ocrPages: pages.filter((page) => page.ocr?.used).length,
      ocrSeconds: Math.round(pages.reduce((sum, page) => sum + (page.ocr?.seconds ?? 0), 0) * 10) / 10,
    },
  };
};

const round1 = (value: number): number => Math.round(value * 10) / 10;

const ADDENDUM_RE = /\bADDENDUM\s*(?:NO\.?|NUMBER|#)?\s*[0-9]+\b/i;

/** Document classification from the page classifications and the first page's heading. */
export const classifyDocument = (
  pages: readonly PageResult[],
  infos: readonly PageInfo[],
): Classification => {
  const counted = infos.filter((info) => !info.isBlank);
  const countedPages = counted.length;
  if (countedPages === 0) return 'other';
  const plans = counted.filter((info) => info.classification === 'plans').length;
  const specs = counted.filter((info) => info.classification === 'specifications').length;
  const docs = counted.filter((info) => info.classification === 'documents').length;
  const firstPage = pages[0];
  const opening = (firstPage?.lines ?? [])
    .filter((line) => line.y1 < (firstPage?.height ?? 792) * 0.4)
    .slice(0, 12)
    .map((line) => line.text)
    .join(' ');
  if (ADDENDUM_RE.test(opening) && !(plans === countedPages)) return 'addenda';
  if (plans / countedPages >= 0.8) return 'plans';
  if (specs / countedPages >= 0.6) return 'specifications';
  if (plans > 0 && specs + docs > 0) return 'mixed';
  if (specs > 0 && docs > 0) return specs >= docs ? 'specifications' : 'documents';
  if (docs / countedPages >= 0.5) return 'documents';
  return 'other';
};
