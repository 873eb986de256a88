/**
 * PageResults (from one or many batches) → the ExtractionResult of the document.
 */
import {
  type Classification,
  EXTRACTION_SCHEMA_VERSION,
  type ExtractionResult,
  type PageClassification,
  type PageInfo,
  type PageIssue,
  type Sheet,
} from './model.ts';
import type { PageResult } from './page.ts';
import { assembleSheets } from './sheet-set.ts';
import { assembleSpecSections } from './spec-sections.ts';

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
  const sheetPages = new Set(sheets.map((s) => s.pageNumber));
  const specifications = assembleSpecSections(
    pages.map((p) => ({
      pageNumber: p.pageNumber,
      height: p.height,
      isSheet: sheetPages.has(p.pageNumber),
      lines: p.lines,
      spec: p.spec,
    })),
  );
  const specPages = new Set<number>();
  for (const s of specifications) for (let p = s.pageStart; p <= s.pageEnd; p++) specPages.add(p);

  const pageInfos: PageInfo[] = pages.map((p) => {
    const classification: PageClassification = sheetPages.has(p.pageNumber)
      ? 'plans'
      : specPages.has(p.pageNumber)
        ? 'specifications'
        : p.charCount > 0 || (p.ocr?.used && p.lines.length > 0)
          ? 'documents'
          : 'other';
    return {
      pageNumber: p.pageNumber,
      width: round1(p.width),
      height: round1(p.height),
      rotation: p.rotation,
      hasTextLayer: p.hasTextLayer,
      textCharCount: p.charCount,
      ocr: p.ocr,
      classification,
      isBlank: p.issue === null && p.spec.isBlank && !sheetPages.has(p.pageNumber),
      issue: p.issue,
    };
  });
  const issues: PageIssue[] = pages.flatMap((p) => (p.issue ? [p.issue] : []));
  const pageNumbers = pages.map((p) => p.pageNumber);
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
      ocrPages: pages.filter((p) => p.ocr?.used).length,
      ocrSeconds: Math.round(pages.reduce((sum, p) => sum + (p.ocr?.seconds ?? 0), 0) * 10) / 10,
    },
  };
};

const round1 = (v: number): number => Math.round(v * 10) / 10;

const ADDENDUM_RE = /\bADDENDUM\s*(?:NO\.?|NUMBER|#)?\s*[0-9]+\b/i;

/** Document classification from the page classifications and the first page's heading. */
export const classifyDocument = (
  pages: readonly PageResult[],
  infos: readonly PageInfo[],
): Classification => {
  const counted = infos.filter((i) => !i.isBlank);
  const n = counted.length;
  if (n === 0) return 'other';
  const plans = counted.filter((i) => i.classification === 'plans').length;
  const specs = counted.filter((i) => i.classification === 'specifications').length;
  const docs = counted.filter((i) => i.classification === 'documents').length;
  const firstPage = pages[0];
  const opening = (firstPage?.lines ?? [])
    .filter((l) => l.y1 < (firstPage?.height ?? 792) * 0.4)
    .slice(0, 12)
    .map((l) => l.text)
    .join(' ');
  if (ADDENDUM_RE.test(opening) && !(plans === n)) return 'addenda';
  if (plans / n >= 0.8) return 'plans';
  if (specs / n >= 0.6) return 'specifications';
  if (plans > 0 && specs + docs > 0) return 'mixed';
  if (specs > 0 && docs > 0) return specs >= docs ? 'specifications' : 'documents';
  if (docs / n >= 0.5) return 'documents';
  return 'other';
};
