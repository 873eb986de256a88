/**
 * Drawing views of a sheet found from its text: a title line with a scale line under it (or on it) and a view
 * number bubble to the left; each view's extent estimated up to the next view title. Boxes in display points.
 */
import { type Box, boxOf, centerInside, centerY, height, type Line, type Word } from '../geometry.ts';
import { drawingTypeOf, type RegionDraft } from './region-draft.ts';
import { SCALE_TEXT_RE } from './sheet-title.ts';

const VIEW_NUMBER_RE = /^[A-Z]?\d{1,2}[A-Z]?$/;
/** A scale line's label without its value: `SCALE:`, `SCALE: HORIZ`, `SCALE: AS SHOWN`. */
const SCALE_LABEL_RE = /^SCALE\s*:?\s*(?:(?:HORIZ(?:ONTAL)?|VERT(?:ICAL)?|AS\s+(?:SHOWN|NOTED)|NONE)\b.*)?$/i;

/** Drawing views: a title line with a scale line under it (or on it), and a view number bubble to the left. */
export const findViews = (
  lines: readonly Line[],
  words: readonly Word[],
  exclude: Box | null,
): RegionDraft[] => {
  const horizontal = lines.filter((line) => line.dir === 0 && !(exclude && centerInside(exclude, line)));
  const views: RegionDraft[] = [];
  const used = new Set<Line>();
  for (const scaleLine of horizontal) {
    const st = scaleLine.text.trim();
    const sm = SCALE_TEXT_RE.exec(st);
    // Under a view title the scale is printed `SCALE: 1"=30'`; OCR may read the label and lose the value (thin
    // lettering of fractions and primes): the label alone, its line no longer than a profile's `SCALE: HORIZ`,
    // still marks the line above as a view title.
    const labelOnly = !sm && SCALE_LABEL_RE.test(st) && scaleLine.words.length <= 3;
    if (!sm && !labelOnly) continue;
    const size = scaleLine.size;
    const before = sm
      ? st
          .slice(0, sm.index)
          .replace(/\bSCALE\s*:?\s*$/i, '')
          .trim()
      : '';
    let titleLine: Line | null = null;
    let titleText = '';
    if (before.replace(/[^A-Za-z]/g, '').length >= 3) {
      titleLine = scaleLine;
      titleText = before;
    } else {
      let bestDist = Number.POSITIVE_INFINITY;
      for (const line of horizontal) {
        if (line === scaleLine || used.has(line)) continue;
        const text = line.text.trim();
        if (text.replace(/[^A-Za-z]/g, '').length < 3 || SCALE_TEXT_RE.test(text)) continue;
        const dy = scaleLine.y0 - line.y1;
        const overlapX = Math.min(line.x1, scaleLine.x1) - Math.max(line.x0, scaleLine.x0);
        if (dy < -0.3 * size || dy > 2.2 * Math.max(size, line.size)) continue;
        if (overlapX < -2 * size && Math.abs(line.x0 - scaleLine.x0) > 3 * size) continue;
        if (line.size < 0.8 * size) continue;
        const dist = dy + Math.abs(line.x0 - scaleLine.x0) * 0.1;
        if (dist < bestDist) {
          bestDist = dist;
          titleLine = line;
          titleText = text;
        }
      }
    }
    if (!titleLine) continue;
    used.add(titleLine);
    const titleBoxCore = boxOf([titleLine, scaleLine]);
    // A view number: a short token left of the title, vertically within the title/scale pair.
    let number: Word | null = null;
    let bestDx = Number.POSITIVE_INFINITY;
    for (const word of words) {
      if (word.dir !== 0 || !VIEW_NUMBER_RE.test(word.text)) continue;
      if (titleLine.words.includes(word) || scaleLine.words.includes(word)) continue;
      const dx = titleBoxCore.x0 - word.x1;
      const cy = centerY(word);
      if (dx < -0.5 * word.size || dx > 6 * Math.max(size, titleLine.size)) continue;
      if (cy < titleBoxCore.y0 - titleLine.size || cy > titleBoxCore.y1 + titleLine.size) continue;
      if (dx < bestDx) {
        bestDx = dx;
        number = word;
      }
    }
    // Title-leading number (`1 FIRST FLOOR PLAN`, `A3 SECTION`).
    let viewNumber: string | null = number?.text ?? null;
    const lead = /^([A-Z]?\d{1,2}[A-Z]?)\s+(.{3,})$/.exec(titleText);
    if (!viewNumber && lead) {
      viewNumber = lead[1] ?? '';
      titleText = lead[2] ?? '';
    }
    const titleBox = number ? boxOf([titleBoxCore, number]) : titleBoxCore;
    const scaleText = sm ? sm[0].trim() : null;
    views.push({
      regionType: 'view',
      label: viewNumber ? `${viewNumber} ${titleText}` : titleText,
      drawingType: drawingTypeOf(titleText),
      box: titleBox,
      titleBox,
      lines: [titleLine, scaleLine].filter((line, index, pair) => pair.indexOf(line) === index),
      viewNumber,
      viewTitle: titleText,
      scaleText,
    });
  }
  return views;
};

/**
 * A view's drawing extent: from its title up to the next view title above (or the page margin), and across
 * to the next view title on either side. Approximate: drawings carry no explicit frame in their text.
 */
export const estimateViewExtents = (
  views: RegionDraft[],
  pageWidth: number,
  pageHeight: number,
  titleBlock: Box | null,
): void => {
  const limitRight = titleBlock && height(titleBlock) > pageHeight * 0.5 ? titleBlock.x0 : pageWidth;
  const limitBottom = titleBlock && height(titleBlock) <= pageHeight * 0.5 ? titleBlock.y0 : pageHeight;
  for (const view of views) {
    const titleBox = view.titleBox;
    if (!titleBox) continue;
    let top = pageHeight * 0.02;
    let left = pageWidth * 0.02;
    let right = limitRight;
    for (const other of views) {
      const ot = other.titleBox;
      if (other === view || !ot) continue;
      const overlapX = Math.min(ot.x1 + 400, titleBox.x1 + 400) - Math.max(ot.x0, titleBox.x0);
      if (ot.y1 < titleBox.y0 && overlapX > 0) top = Math.max(top, ot.y1 + 4);
      if (Math.abs(centerY(ot) - centerY(titleBox)) < height(titleBox) * 4) {
        if (ot.x0 > titleBox.x1) right = Math.min(right, ot.x0 - 4);
        if (ot.x1 < titleBox.x0) left = Math.max(left, ot.x1 + 4);
      }
    }
    view.box = {
      x0: Math.min(left, titleBox.x0),
      y0: Math.min(top, titleBox.y0),
      x1: Math.max(right, titleBox.x1),
      y1: Math.min(Math.max(titleBox.y1 + 2, titleBox.y1), limitBottom),
    };
  }
};
