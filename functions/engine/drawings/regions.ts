/**
 * Regions of a drawing sheet found from its text: titled blocks (general notes, keynotes, legends,
 * abbreviations, schedules, sheet indexes), drawing views (number + title + scale), revision blocks and
 * review stamps. Boxes are in display points (see model.ts).
 */

import { parseNumberedEntries } from '../assembly/normalize.ts';
import {
  type Box,
  boxOf,
  centerInside,
  centerX,
  contains,
  intersection,
  type Line,
  median,
  type Word,
} from '../geometry.ts';
import type { RegionType, Schedule } from '../model.ts';
import { INDEX_HEADING_RE } from './drawing-index.ts';
import { type RegionDraft, rowsOf } from './region-draft.ts';
import { findRevisionBlocks, findStamps } from './revisions-and-stamps.ts';
import { estimateViewExtents, findViews } from './views.ts';

/** Label of a drawing-area view until the sheet title is known (see `assembleSheets`). */
export const DRAWING_AREA_LABEL = 'DRAWING';
/** Words a sheet needs outside its title block and other regions to get a drawing-area view. */
const DRAWING_AREA_MIN_WORDS = 10;

interface HeadingKind {
  type: RegionType;
  re: RegExp;
}

const HEADING_KINDS: readonly HeadingKind[] = [
  {
    type: 'sheetIndex',
    re: INDEX_HEADING_RE,
  },
  {
    type: 'keynotes',
    re: /\b(?:KEY\s*NOTES?|KEYED\s+(?:NOTES|SHEET\s+NOTES)|SHEET\s+KEYNOTES|KEYNOTE\s+LEGEND)\b/i,
  },
  { type: 'generalNotes', re: /\bGENERAL\s+NOTES?\b/i },
  { type: 'abbreviations', re: /^(?:(?!.*LEGEND).)*\bABBREVIATIONS\b/i },
  { type: 'legend', re: /\b(?:LEGEND|SYMBOLS)\b/i },
  { type: 'schedule', re: /\bSCHEDULES?\b|\bTABLE\b/i },
  { type: 'notes', re: /\bNOTES?\s*:?$/i },
];

const upperRatio = (text: string): number => {
  const letters = text.replace(/[^A-Za-z]/g, '');
  return letters.length ? letters.replace(/[^A-Z]/g, '').length / letters.length : 0;
};

/** Lines that read as a region heading: short, mostly uppercase, a known kind, not smaller than body text. */
const headingKind = (line: Line, typicalSize: number, lines: readonly Line[]): RegionType | null => {
  const text = line.text.trim();
  if (text.length > 70 || text.split(/\s+/).length > 9 || text.length < 4) return null;
  if (upperRatio(text) < 0.85) return null;
  if (line.size < typicalSize * 0.95) return null;
  if (/^(?:SEE|REFER|PROVIDE|\d+[.)]|[A-Z][.)])\s/.test(text)) return null;
  // Body-sized text is a heading only when it starts a block (nothing just above it) and is not a sentence.
  if (line.size < typicalSize * 1.15 && (/[.,;]$/.test(text) || !isolatedAbove(line, lines))) return null;
  for (const kind of HEADING_KINDS) if (kind.re.test(text)) return kind.type;
  return null;
};

const isolatedAbove = (line: Line, lines: readonly Line[]): boolean =>
  !lines.some(
    (other) =>
      other !== line &&
      other.dir === line.dir &&
      other.y1 > line.y0 - 0.9 * line.size &&
      other.y1 <= line.y0 + 0.2 * line.size &&
      Math.min(other.x1, line.x1) - Math.max(other.x0, line.x0) > 0,
  );

/** A heading printed on two lines (`ROOM FINISH LEGEND &` / `ABBREVIATIONS`): the line just below joins it. */
const continuationBelow = (heading: Line, lines: readonly Line[]): Line | null => {
  const below = lines.find(
    (other) =>
      other !== heading &&
      other.dir === heading.dir &&
      other.y0 >= heading.y1 - 0.2 * heading.size &&
      other.y0 - heading.y1 < 0.6 * heading.size &&
      Math.abs(other.size - heading.size) <= 0.1 * heading.size &&
      Math.abs(other.x0 - heading.x0) < 2 * heading.size,
  );
  if (!below) return null;
  const text = below.text.trim();
  return upperRatio(text) >= 0.85 && text.split(/\s+/).length <= 5 && !/[.,;]$/.test(text) ? below : null;
};

/**
 * The body under a heading: lines in the heading's column, going down while the vertical gaps stay small.
 * Stops at another heading. `wide` lets tables extend to the right of their title.
 */
const bodyUnder = (
  heading: Line,
  lines: readonly Line[],
  headings: ReadonlySet<Line>,
  exclude: Box | null,
  pageWidth: number,
  wide: boolean,
): Line[] => {
  const size = heading.size;
  const left = heading.x0 - 3 * size;
  const right = wide
    ? heading.x0 + pageWidth * 0.55
    : Math.max(heading.x1 + 4 * size, heading.x0 + pageWidth * 0.2);
  const pool = lines.filter(
    (line) =>
      line !== heading &&
      line.dir === 0 &&
      line.y0 >= heading.y1 - 0.2 * size &&
      line.x0 >= left &&
      line.x0 <= right &&
      !(exclude && centerInside(exclude, line)),
  );
  const rows = rowsOf(pool);
  const out: Line[] = [];
  let lastBottom = heading.y1;
  for (const row of rows) {
    const top = Math.min(...row.map((line) => line.y0));
    const rowSize = Math.max(...row.map((line) => line.size));
    if (top - lastBottom > Math.max(2.6 * rowSize, 1.8 * size)) break;
    if (row.some((line) => headings.has(line))) break;
    out.push(...row);
    lastBottom = Math.max(lastBottom, ...row.map((line) => line.y1));
  }
  return out;
};

const tableFromRows = (rows: readonly Line[][]): Schedule | null => {
  if (rows.length < 2) return null;
  // Header: the first row with at least two cells.
  const headerIndex = rows.findIndex((row) => row.length >= 2);
  if (headerIndex < 0) return null;
  const header = rows[headerIndex];
  if (!header) return null;
  const columns = header.map((line) => line.text.trim());
  const unique = columns.map((column, index) =>
    columns.indexOf(column) === index ? column : `${column} (${index + 1})`,
  );
  const records: Array<Record<string, string>> = [];
  for (const row of rows.slice(headerIndex + 1)) {
    const record: Record<string, string> = {};
    for (const cell of row) {
      // Column whose header overlaps the cell most (else the nearest header center).
      let best = 0;
      let bestScore = Number.NEGATIVE_INFINITY;
      header.forEach((headerLine, index) => {
        const overlap = Math.min(headerLine.x1, cell.x1) - Math.max(headerLine.x0, cell.x0);
        const score = overlap > 0 ? overlap : -Math.abs(centerX(headerLine) - centerX(cell));
        if (score > bestScore) {
          bestScore = score;
          best = index;
        }
      });
      const key = unique[best] ?? `${best + 1}`;
      record[key] = record[key] ? `${record[key]} ${cell.text.trim()}` : cell.text.trim();
    }
    if (Object.keys(record).length) records.push(record);
  }
  return records.length ? { columns: unique, rows: records } : null;
};

export const findRegions = (
  lines: readonly Line[],
  words: readonly Word[],
  titleBlock: Box | null,
  pageWidth: number,
  pageHeight: number,
  /** Views whose titles were read elsewhere (OCR beside the bubbles of an outlined sheet). */
  readViews: readonly RegionDraft[] = [],
): RegionDraft[] => {
  const typical = median(words.filter((word) => word.dir === 0).map((word) => word.size)) || 10;
  const regions: RegionDraft[] = [];
  if (titleBlock) {
    const inside = lines.filter((line) => centerInside(titleBlock, line));
    regions.push({
      regionType: 'titleBlock',
      label: 'TITLE BLOCK',
      drawingType: null,
      box: titleBlock,
      titleBox: null,
      lines: inside,
    });
  }
  const headingLines = new Map<Line, RegionType>();
  const joined = new Set<Line>();
  for (const line of lines) {
    if (line.dir !== 0 || joined.has(line) || (titleBlock && centerInside(titleBlock, line))) continue;
    let kind = headingKind(line, typical, lines);
    const below = continuationBelow(line, lines);
    if (below && (kind || /(?:&|\bAND)$/i.test(line.text.trim()))) {
      const merged: Line = {
        ...boxOf([line, below]),
        words: [...line.words, ...below.words],
        text: `${line.text.trim()} ${below.text.trim()}`,
        size: line.size,
        dir: line.dir,
      };
      kind =
        headingKind(
          { ...merged, y0: line.y0 },
          typical,
          lines.filter((other) => other !== line),
        ) ?? kind;
      if (kind) {
        joined.add(below);
        headingLines.delete(below);
        headingLines.set(merged, kind);
        continue;
      }
    }
    if (kind) headingLines.set(line, kind);
  }
  for (const line of joined) headingLines.delete(line);
  // A keynote heading without numbered entries under it is a stray word (a legend label): not a heading.
  for (const [heading, type] of [...headingLines]) {
    if (type !== 'keynotes') continue;
    const body = bodyUnder(heading, lines, new Set(), titleBlock, pageWidth, false);
    if (
      parseNumberedEntries(rowsOf(body).map((row) => row.map((line) => line.text).join(' '))).length === 0
    ) {
      headingLines.delete(heading);
    }
  }
  const headingSet = new Set(headingLines.keys());
  for (const [heading, type] of headingLines) {
    const wide =
      type === 'schedule' || type === 'sheetIndex' || type === 'legend' || type === 'abbreviations';
    const body = bodyUnder(heading, lines, headingSet, titleBlock, pageWidth, wide);
    if (body.length === 0) continue;
    const all = [heading, ...body];
    const region: RegionDraft = {
      regionType: type,
      label: heading.text.trim().replace(/:$/, ''),
      drawingType: type === 'schedule' ? 'schedule' : null,
      box: boxOf(all),
      titleBox: { x0: heading.x0, y0: heading.y0, x1: heading.x1, y1: heading.y1 },
      lines: all,
    };
    const rows = rowsOf(body);
    if (type === 'schedule' || type === 'sheetIndex') region.schedule = tableFromRows(rows);
    if (type === 'keynotes' || type === 'generalNotes' || type === 'notes') {
      region.keynotes = parseNumberedEntries(rows.map((row) => row.map((line) => line.text).join(' ')));
    }
    regions.push(region);
  }
  regions.push(...findRevisionBlocks(lines));
  regions.push(...findStamps(lines));
  const textViews = findViews(lines, words, titleBlock);
  const views = [
    ...textViews,
    ...readViews.filter(
      (view) =>
        !textViews.some(
          (textView) =>
            textView.titleBox && view.titleBox && intersection(textView.titleBox, view.titleBox) > 0,
        ),
    ),
  ];
  estimateViewExtents(views, pageWidth, pageHeight, titleBlock);
  regions.push(...views);
  if (views.length === 0) {
    // A sheet with one drawing titled only in its title block (a floor plan, a site plan): its drawing area
    // is its one view, so its callouts and labels belong to a region too.
    const free = lines.filter(
      (line) =>
        !(titleBlock && centerInside(titleBlock, line)) &&
        !regions.some((region) => centerInside(region.box, line)),
    );
    if (free.reduce((count, line) => count + line.words.length, 0) >= DRAWING_AREA_MIN_WORDS) {
      regions.push({
        regionType: 'view',
        label: DRAWING_AREA_LABEL,
        drawingType: null,
        box: boxOf(free),
        titleBox: null,
        lines: free,
        viewNumber: null,
        viewTitle: null,
        scaleText: null,
        drawingArea: true,
      });
    }
  }
  // A region entirely inside a larger one of the same type (nested headings) is dropped.
  return regions.filter(
    (region, index) =>
      !regions.some(
        (other, otherIndex) =>
          otherIndex !== index &&
          other.regionType === region.regionType &&
          other.regionType !== 'view' &&
          contains(other.box, region.box) &&
          (otherIndex < index || !contains(region.box, other.box)),
      ),
  );
};

export { drawingTypeOf, type RegionDraft } from './region-draft.ts';
