/**
 * Scoring of extraction results against the corpus labels (pure functions, unit-testable).
 */
import { boxGap } from '../../functions/engine/geometry.ts';
import type { ExtractionResult, SpecSection } from '../../functions/engine/model.ts';

export interface SectionLabel {
  sectionNumber: string;
  sectionTitle: string;
  pageStart: number;
  pageEnd: number;
}

export interface SheetLabel {
  page: number;
  sheetNumber: string;
  sheetTitle: string;
  ncsDiscipline?: string;
  hasTextLayer?: boolean;
}

export interface SectionScore {
  file: string;
  labeled: number;
  predicted: number;
  matched: number;
  exactRange: number;
  titleAgree: number;
  f1: number;
  details: string[];
}

export interface SheetScore {
  file: string;
  total: number;
  textTotal: number;
  textOk: number;
  ocrTotal: number;
  ocrOk: number;
  disciplineOk: number;
  titleOk: number;
  extraSheets: number;
  details: string[];
}

export const pct = (a: number, b: number): string => (b === 0 ? 'n/a' : `${((100 * a) / b).toFixed(1)}%`);

/** Titles agree when their letters and digits agree, ignoring case, punctuation and spacing. */
export const foldTitle = (t: string | null | undefined): string =>
  (t ?? '')
    .normalize('NFKD')
    .toUpperCase()
    .replace(/[^A-Z0-9]/g, '');

export const foldSheetNumber = (n: string | null | undefined): string =>
  (n ?? '').toUpperCase().replace(/\s+/g, '');

const f1 = (matched: number, predicted: number, labeled: number): number => {
  const p = predicted ? matched / predicted : 0;
  const r = labeled ? matched / labeled : 0;
  return p + r ? (2 * p * r) / (p + r) : 0;
};

/**
 * Pairs labeled and predicted sections with the same number, closest start page first (numbers repeat:
 * appendices, duplicate copies, two versions).
 */
export const matchSections = (
  file: string,
  labels: readonly SectionLabel[],
  predicted: readonly SpecSection[],
): SectionScore => {
  const candidates: Array<{
    li: number;
    pi: number;
    label: SectionLabel;
    section: SpecSection;
    distance: number;
  }> = [];
  labels.forEach((l, li) => {
    predicted.forEach((p, pi) => {
      if (p.sectionNumber === l.sectionNumber)
        candidates.push({ li, pi, label: l, section: p, distance: Math.abs(p.pageStart - l.pageStart) });
    });
  });
  candidates.sort((a, b) => a.distance - b.distance);
  const usedL = new Set<number>();
  const usedP = new Set<number>();
  const pairs: Array<[number, SectionLabel, SpecSection]> = [];
  for (const c of candidates) {
    if (usedL.has(c.li) || usedP.has(c.pi)) continue;
    usedL.add(c.li);
    usedP.add(c.pi);
    pairs.push([c.li, c.label, c.section]);
  }
  const details: string[] = [];
  let exactRange = 0;
  let titleAgree = 0;
  for (const [, l, p] of pairs.sort((a, b) => a[0] - b[0])) {
    const exact = l.pageStart === p.pageStart && l.pageEnd === p.pageEnd;
    const title = foldTitle(l.sectionTitle) === foldTitle(p.sectionTitle);
    if (exact) exactRange++;
    if (title) titleAgree++;
    if (!exact)
      details.push(
        `range  ${l.sectionNumber}: label ${l.pageStart}-${l.pageEnd}, got ${p.pageStart}-${p.pageEnd}`,
      );
    if (!title) details.push(`title  ${l.sectionNumber}: label "${l.sectionTitle}", got "${p.sectionTitle}"`);
  }
  labels.forEach((l, li) => {
    if (!usedL.has(li))
      details.push(`missed ${l.sectionNumber} "${l.sectionTitle}" ${l.pageStart}-${l.pageEnd}`);
  });
  predicted.forEach((p, pi) => {
    if (!usedP.has(pi))
      details.push(
        `extra  ${p.sectionNumber} "${p.sectionTitle}" ${p.pageStart}-${p.pageEnd} (${p.detectedFrom})`,
      );
  });
  return {
    file,
    labeled: labels.length,
    predicted: predicted.length,
    matched: pairs.length,
    exactRange,
    titleAgree,
    f1: f1(pairs.length, predicted.length, labels.length),
    details,
  };
};

export const sumSectionScores = (scores: readonly SectionScore[]): SectionScore => {
  const t = scores.reduce(
    (acc, s) => ({
      labeled: acc.labeled + s.labeled,
      predicted: acc.predicted + s.predicted,
      matched: acc.matched + s.matched,
      exactRange: acc.exactRange + s.exactRange,
      titleAgree: acc.titleAgree + s.titleAgree,
    }),
    { labeled: 0, predicted: 0, matched: 0, exactRange: 0, titleAgree: 0 },
  );
  return { file: 'overall', ...t, f1: f1(t.matched, t.predicted, t.labeled), details: [] };
};

const emptySheetScore = (file: string): SheetScore => ({
  file,
  total: 0,
  textTotal: 0,
  textOk: 0,
  ocrTotal: 0,
  ocrOk: 0,
  disciplineOk: 0,
  titleOk: 0,
  extraSheets: 0,
  details: [],
});

export const matchSheets = (
  file: string,
  labels: readonly SheetLabel[],
  result: ExtractionResult,
): SheetScore => {
  const byPage = new Map(result.sheets.map((s) => [s.pageNumber, s]));
  const labeledPages = new Set(labels.map((l) => l.page));
  const score: SheetScore = {
    ...emptySheetScore(file),
    total: labels.length,
    extraSheets: result.sheets.filter((s) => !labeledPages.has(s.pageNumber)).length,
  };
  for (const label of labels) {
    const sheet = byPage.get(label.page);
    const textLayer = label.hasTextLayer !== false;
    const numberOk = foldSheetNumber(sheet?.sheetNumber) === foldSheetNumber(label.sheetNumber);
    if (textLayer) {
      score.textTotal++;
      if (numberOk) score.textOk++;
    } else {
      score.ocrTotal++;
      if (numberOk) score.ocrOk++;
    }
    const disciplineOk = sheet?.discipline?.code === label.ncsDiscipline;
    if (disciplineOk) score.disciplineOk++;
    const titleOk = foldTitle(sheet?.sheetTitle) === foldTitle(label.sheetTitle);
    if (titleOk) score.titleOk++;
    if (!numberOk || !titleOk || !disciplineOk) {
      score.details.push(
        `p${label.page} ${textLayer ? 'text' : 'ocr '} number ${numberOk ? 'ok' : `"${label.sheetNumber}" got "${sheet?.sheetNumber ?? '-'}"`}` +
          ` | discipline ${disciplineOk ? 'ok' : `${label.ncsDiscipline} got ${sheet?.discipline?.code ?? '-'}`}` +
          ` | title ${titleOk ? 'ok' : `"${label.sheetTitle}" got "${sheet?.sheetTitle ?? '-'}"`}`,
      );
    }
  }
  return score;
};

/** Totals of per-file counts: every numeric field summed, `file` set to `overall`, no details. */
const sumCounts = <T extends { file: string; details: string[] }>(scores: readonly T[], zero: T): T => {
  const total: Record<string, unknown> = { ...zero, file: 'overall', details: [] };
  for (const score of scores)
    for (const [key, value] of Object.entries(score))
      if (typeof value === 'number') total[key] = (total[key] as number) + value;
  return total as T;
};

export const sumSheetScores = (scores: readonly SheetScore[]): SheetScore =>
  sumCounts(scores, emptySheetScore('overall'));

// ---------------------------------------------------------------------------------------------------------
// Views and sheet references (labels in sheets.json: `views[]` and, for drawings-extra, `references[]`)
// ---------------------------------------------------------------------------------------------------------

export interface ViewLabel {
  number: string | null;
  title: string;
  scale?: string | null;
  /** [x0, y0, x1, y1] in displayed PDF points: the union of the view-title words. */
  bbox?: number[];
}

export interface ReferenceLabel {
  detail: string;
  sheet: string;
}

export interface RegionLabels {
  page: number;
  views?: ViewLabel[];
  references?: ReferenceLabel[];
}

export interface ViewScore {
  file: string;
  /** Titled views with a box in the labels, and how many a predicted view region sits on. */
  viewsLabeled: number;
  viewsFound: number;
  viewTitleOk: number;
  viewScaleOk: number;
  viewsPredicted: number;
  /** Distinct (detail, sheet) callouts per page. */
  refsLabeled: number;
  refsFound: number;
  refsPredicted: number;
  details: string[];
}

const emptyViewScore = (file: string): ViewScore => ({
  file,
  viewsLabeled: 0,
  viewsFound: 0,
  viewTitleOk: 0,
  viewScaleOk: 0,
  viewsPredicted: 0,
  refsLabeled: 0,
  refsFound: 0,
  refsPredicted: 0,
  details: [],
});

/** Scales agree when their digits and units agree (`1/4" = 1'-0"` vs `1/4"=1'-0"`). */
const foldScale = (s: string | null | undefined): string =>
  (s ?? '').toUpperCase().replace(/[^0-9A-Z/"'=.]/g, '');

/**
 * Views: a labeled view (titled, with a box) is found when a predicted `view` region's title box lies within
 * 20 pt of the labeled title words (label boxes of outlined text are rough, ±20 pt); pairs are one-to-one,
 * nearest first. Its title and scale are then compared. References: the distinct (detail, sheet) pairs the
 * labels list per page (callout symbols printed as text) against the pairs found in the page's regions
 * (which also include references written in notes, so "predicted" is not a precision denominator).
 */
export const matchViews = (
  file: string,
  labels: readonly RegionLabels[],
  result: Pick<ExtractionResult, 'sheets'>,
): ViewScore => {
  const score = emptyViewScore(file);
  for (const label of labels) {
    const sheet = result.sheets.find((s) => s.pageNumber === label.page);
    const regions = sheet?.regions ?? [];
    // Titled views only: the drawing-area view of a sheet without titled views has no title box.
    const predicted = regions
      .filter((r) => r.regionType === 'view' && r.titleDisplayBox !== null)
      .map((r) => {
        const b = r.titleDisplayBox ?? r.displayBox;
        return { region: r, box: { x0: b.left, y0: b.top, x1: b.right, y1: b.bottom } };
      });
    score.viewsPredicted += predicted.length;
    const wanted = (label.views ?? []).filter((v) => v.number !== null && v.bbox?.length === 4);
    const pairs: Array<{ v: ViewLabel; p: (typeof predicted)[number]; gap: number }> = [];
    for (const v of wanted) {
      const [x0 = 0, y0 = 0, x1 = 0, y1 = 0] = v.bbox ?? [];
      for (const p of predicted) {
        const gap = boxGap({ x0, y0, x1, y1 }, p.box);
        if (gap <= 20) pairs.push({ v, p, gap });
      }
    }
    const usedV = new Set<ViewLabel>();
    const usedP = new Set<(typeof predicted)[number]>();
    for (const pair of pairs.sort((a, b) => a.gap - b.gap)) {
      if (usedV.has(pair.v) || usedP.has(pair.p)) continue;
      usedV.add(pair.v);
      usedP.add(pair.p);
      const data = pair.p.region.normalizedData;
      const titleOk = foldTitle(data.viewTitle) === foldTitle(pair.v.title);
      const scaleOk = !pair.v.scale || foldScale(data.scale?.text) === foldScale(pair.v.scale);
      if (titleOk) score.viewTitleOk++;
      if (scaleOk) score.viewScaleOk++;
      if (!titleOk || !scaleOk)
        score.details.push(
          `p${label.page} view ${pair.v.number} "${pair.v.title}" ${pair.v.scale ?? ''} got "${data.viewTitle ?? '-'}" ${data.scale?.text ?? ''}`,
        );
    }
    score.viewsLabeled += wanted.length;
    score.viewsFound += usedV.size;
    for (const v of wanted)
      if (!usedV.has(v)) score.details.push(`p${label.page} view ${v.number} "${v.title}" not found`);
    if (label.references) {
      const key = (detail: string | null, sheetNo: string): string =>
        `${foldSheetNumber(detail)}/${foldSheetNumber(sheetNo).replace(/-/g, '')}`;
      const want = new Set(label.references.map((r) => key(r.detail, r.sheet)));
      const got = new Set(
        regions.flatMap((r) => r.normalizedData.sheetReferences.map((ref) => key(ref.detail, ref.sheet))),
      );
      score.refsLabeled += want.size;
      score.refsPredicted += got.size;
      const missed = [...want].filter((k) => !got.has(k));
      score.refsFound += want.size - missed.length;
      if (missed.length) score.details.push(`p${label.page} references missed: ${missed.join(', ')}`);
    }
  }
  return score;
};

export const sumViewScores = (scores: readonly ViewScore[]): ViewScore =>
  sumCounts(scores, emptyViewScore('overall'));
