/**
 * Region measures that do not depend on the view-title position rule of `matchViews`:
 * - views by title: every labeled view with a printed title (numbered or not, with or without a box) is found
 *   when a predicted `view` region on its page carries the same title (one to one). This scores the sets whose
 *   labels have no boxes.
 * - region boxes: every labeled region and view with a box is found when a predicted region of a compatible
 *   type overlaps it with IoU >= 0.5 (one to one, best overlap first).
 */
import { type Box, iou } from '../../functions/engine/geometry.ts';
import type { ExtractionResult, Region, RegionType } from '../../functions/engine/model.ts';

export const REGION_IOU_THRESHOLD = 0.5;
/** A labeled view box this tall or less is the union of its title words; a taller one is the drawing extent. */
const TITLE_BOX_MAX_HEIGHT = 120;

export interface LabeledRegion {
  type: string;
  title?: string;
  text?: string;
  bbox?: number[];
}

export interface LabeledView {
  number: string | null;
  title: string;
  bbox?: number[];
}

export interface RegionPageLabels {
  page: number;
  views?: LabeledView[];
  regions?: LabeledRegion[];
}

export interface RegionScore {
  file: string;
  /** Views with a printed title, and how many a predicted view region on the page carries. */
  viewTitlesLabeled: number;
  viewTitlesFound: number;
  /** Labeled regions and views with a box of a type the engine produces, and how many are matched. */
  boxesLabeled: number;
  boxesMatched: number;
  details: string[];
}

export const emptyRegionScore = (file: string): RegionScore => ({
  file,
  viewTitlesLabeled: 0,
  viewTitlesFound: 0,
  boxesLabeled: 0,
  boxesMatched: 0,
  details: [],
});

/** Predicted region types that answer a labeled type; labeled types the engine has no region for are absent. */
const COMPATIBLE_TYPES: Readonly<Record<string, readonly RegionType[]>> = {
  titleBlock: ['titleBlock'],
  notes: ['notes', 'generalNotes', 'keynotes'],
  generalNotes: ['notes', 'generalNotes', 'keynotes'],
  keynotes: ['notes', 'generalNotes', 'keynotes'],
  legend: ['legend', 'abbreviations'],
  abbreviations: ['legend', 'abbreviations'],
  schedule: ['schedule', 'sheetIndex'],
  sheetIndex: ['schedule', 'sheetIndex'],
  revisionBlock: ['revisionBlock'],
  stamp: ['stamp'],
};

/** Letters and digits of a title; parenthesised notes in lower case are the labeller's, not printed. */
export const foldViewTitle = (title: string | null | undefined): string =>
  (title ?? '')
    .replace(/\([^)]*[a-z][^)]*\)/g, '')
    .normalize('NFKD')
    .toUpperCase()
    .replace(/[^A-Z0-9]/g, '');

const isPrintedTitle = (view: LabeledView): boolean =>
  !/\buntitled\b/i.test(view.title) && foldViewTitle(view.title).length > 0;

const boxOfLabel = (bbox: readonly number[] | undefined): Box | null => {
  if (bbox?.length !== 4) return null;
  const [x0 = 0, y0 = 0, x1 = 0, y1 = 0] = bbox;
  return { x0, y0, x1, y1 };
};

const boxOfDisplay = (box: Region['displayBox']): Box => ({
  x0: box.left,
  y0: box.top,
  x1: box.right,
  y1: box.bottom,
});

interface BoxTarget {
  what: string;
  box: Box;
  /** Candidate boxes of the predicted regions that may answer it. */
  candidates: Array<{ region: Region; box: Box }>;
}

const targetsOf = (label: RegionPageLabels, regions: readonly Region[]): BoxTarget[] => {
  const targets: BoxTarget[] = [];
  for (const labeled of label.regions ?? []) {
    const box = boxOfLabel(labeled.bbox);
    const types = COMPATIBLE_TYPES[labeled.type];
    if (!box || !types) continue;
    targets.push({
      what: `${labeled.type} "${(labeled.title ?? labeled.text ?? '').slice(0, 40)}"`,
      box,
      candidates: regions
        .filter((r) => types.includes(r.regionType))
        .map((r) => ({ region: r, box: boxOfDisplay(r.displayBox) })),
    });
  }
  const views = regions.filter((r) => r.regionType === 'view');
  for (const view of label.views ?? []) {
    const box = boxOfLabel(view.bbox);
    if (!box) continue;
    const titleBox = box.y1 - box.y0 <= TITLE_BOX_MAX_HEIGHT;
    targets.push({
      what: `view ${titleBox ? 'title' : 'extent'} "${view.title.slice(0, 40)}"`,
      box,
      candidates: views.flatMap((r) => {
        const predicted = titleBox ? r.titleDisplayBox : r.displayBox;
        return predicted ? [{ region: r, box: boxOfDisplay(predicted) }] : [];
      }),
    });
  }
  return targets;
};

export const matchRegions = (
  file: string,
  labels: readonly RegionPageLabels[],
  result: Pick<ExtractionResult, 'sheets'>,
): RegionScore => {
  const score = emptyRegionScore(file);
  for (const label of labels) {
    const sheet = result.sheets.find((s) => s.pageNumber === label.page);
    const regions = sheet?.regions ?? [];
    // Views by title.
    const titled = (label.views ?? []).filter(isPrintedTitle);
    const predictedTitles = regions
      .filter((r) => r.regionType === 'view')
      .map((r) => foldViewTitle(r.normalizedData.viewTitle));
    const unused = [...predictedTitles];
    for (const view of titled) {
      const at = unused.indexOf(foldViewTitle(view.title));
      if (at >= 0) {
        unused.splice(at, 1);
        score.viewTitlesFound++;
      } else {
        score.details.push(`p${label.page} view title "${view.title}" not found`);
      }
    }
    score.viewTitlesLabeled += titled.length;
    // Region boxes.
    const targets = targetsOf(label, regions);
    const pairs = targets.flatMap((target) =>
      target.candidates.map((candidate) => ({ target, candidate, overlap: iou(target.box, candidate.box) })),
    );
    const matchedTargets = new Set<BoxTarget>();
    const usedRegions = new Set<Region>();
    for (const pair of pairs.sort((a, b) => b.overlap - a.overlap)) {
      if (pair.overlap < REGION_IOU_THRESHOLD) break;
      if (matchedTargets.has(pair.target) || usedRegions.has(pair.candidate.region)) continue;
      matchedTargets.add(pair.target);
      usedRegions.add(pair.candidate.region);
    }
    score.boxesLabeled += targets.length;
    score.boxesMatched += matchedTargets.size;
    for (const target of targets) {
      if (matchedTargets.has(target)) continue;
      const best = Math.max(0, ...target.candidates.map((c) => iou(target.box, c.box)));
      score.details.push(`p${label.page} box ${target.what} best IoU ${best.toFixed(2)}`);
    }
  }
  return score;
};

export const sumRegionScores = (scores: readonly RegionScore[]): RegionScore => {
  const total = emptyRegionScore('overall');
  for (const score of scores) {
    total.viewTitlesLabeled += score.viewTitlesLabeled;
    total.viewTitlesFound += score.viewTitlesFound;
    total.boxesLabeled += score.boxesLabeled;
    total.boxesMatched += score.boxesMatched;
  }
  return total;
};
