/**
 * Regions of a drawing sheet found from its text: titled blocks (general notes, keynotes, legends,
 * abbreviations, schedules, sheet indexes), drawing views (number + title + scale), revision blocks and
 * review stamps. Boxes are in display points (see model.ts).
 */
import {
  type Box,
  boxOf,
  centerInside,
  centerX,
  centerY,
  contains,
  height,
  type Line,
  median,
  type Word,
} from './geometry.ts';
import type { DrawingType, Keynote, RegionType, Revision, Schedule } from './model.ts';
import { parseNumberedEntries } from './normalize.ts';
import { SCALE_TEXT_RE } from './sheet-title.ts';

export interface RegionDraft {
  regionType: RegionType;
  label: string;
  drawingType: DrawingType | null;
  box: Box;
  titleBox: Box | null;
  lines: Line[];
  viewNumber?: string | null;
  viewTitle?: string | null;
  scaleText?: string | null;
  keynotes?: Keynote[];
  schedule?: Schedule | null;
  revisions?: Revision[];
  /** The whole drawing area of a sheet without titled views: its title is the sheet title (set level). */
  drawingArea?: boolean;
}

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
    re: /\b(?:INDEX\s+OF\s+(?:DRAWINGS|SHEETS)|(?:SHEET|DRAWING)\s+(?:INDEX|LIST)|LIST\s+OF\s+(?:DRAWINGS|SHEETS))\b/i,
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

const upperRatio = (t: string): number => {
  const letters = t.replace(/[^A-Za-z]/g, '');
  return letters.length ? letters.replace(/[^A-Z]/g, '').length / letters.length : 0;
};

export const drawingTypeOf = (title: string): DrawingType | null => {
  const t = title.toUpperCase();
  if (/\bSCHEDULE\b/.test(t)) return 'schedule';
  if (/\bDETAILS?\b|\bDET\.?\b/.test(t)) return 'detail';
  if (/\bELEVATIONS?\b|\bELEV\.?\b/.test(t)) return 'elevation';
  if (/\bSECTIONS?\b|\bSECT\.?\b/.test(t)) return 'section';
  if (/\bPROFILES?\b/.test(t)) return 'profile';
  if (/\bDIAGRAMS?\b|\bRISER\b|\bONE[- ]LINE\b/.test(t)) return 'diagram';
  if (/\bSCHEMATICS?\b/.test(t)) return 'schematic';
  if (/\bPERSPECTIVE|ISOMETRIC|AXON|RENDERING|3D\b/.test(t)) return 'perspective';
  if (/\bMAP\b/.test(t)) return 'map';
  if (
    /\bPLANS?\b|\bFLOOR\b|\bROOF\b|\bLAYOUT\b|\bSITE\b|\bCEILING\b|\bRCP\b|\bFOUNDATION\b|\bFRAMING\b/.test(t)
  )
    return 'plan';
  return null;
};

/** Lines that read as a region heading: short, mostly uppercase, a known kind, not smaller than body text. */
const headingKind = (line: Line, typicalSize: number, lines: readonly Line[]): RegionType | null => {
  const t = line.text.trim();
  if (t.length > 70 || t.split(/\s+/).length > 9 || t.length < 4) return null;
  if (upperRatio(t) < 0.85) return null;
  if (line.size < typicalSize * 0.95) return null;
  if (/^(?:SEE|REFER|PROVIDE|\d+[.)]|[A-Z][.)])\s/.test(t)) return null;
  // Body-sized text is a heading only when it starts a block (nothing just above it) and is not a sentence.
  if (line.size < typicalSize * 1.15 && (/[.,;]$/.test(t) || !isolatedAbove(line, lines))) return null;
  for (const kind of HEADING_KINDS) if (kind.re.test(t)) return kind.type;
  return null;
};

const isolatedAbove = (line: Line, lines: readonly Line[]): boolean =>
  !lines.some(
    (o) =>
      o !== line &&
      o.dir === line.dir &&
      o.y1 > line.y0 - 0.9 * line.size &&
      o.y1 <= line.y0 + 0.2 * line.size &&
      Math.min(o.x1, line.x1) - Math.max(o.x0, line.x0) > 0,
  );

/** A heading printed on two lines (`ROOM FINISH LEGEND &` / `ABBREVIATIONS`): the line just below joins it. */
const continuationBelow = (heading: Line, lines: readonly Line[]): Line | null => {
  const below = lines.find(
    (o) =>
      o !== heading &&
      o.dir === heading.dir &&
      o.y0 >= heading.y1 - 0.2 * heading.size &&
      o.y0 - heading.y1 < 0.6 * heading.size &&
      Math.abs(o.size - heading.size) <= 0.1 * heading.size &&
      Math.abs(o.x0 - heading.x0) < 2 * heading.size,
  );
  if (!below) return null;
  const t = below.text.trim();
  return upperRatio(t) >= 0.85 && t.split(/\s+/).length <= 5 && !/[.,;]$/.test(t) ? below : null;
};

/** Groups lines into rows (same vertical band), top to bottom. */
const rowsOf = (lines: readonly Line[]): Line[][] => {
  const sorted = [...lines].sort((a, b) => centerY(a) - centerY(b));
  const rows: Line[][] = [];
  for (const l of sorted) {
    const row = rows[rows.length - 1];
    const first = row?.[0];
    if (row && first && Math.abs(centerY(first) - centerY(l)) < 0.5 * Math.min(first.size, l.size))
      row.push(l);
    else rows.push([l]);
  }
  for (const row of rows) row.sort((a, b) => a.x0 - b.x0);
  return rows;
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
    (l) =>
      l !== heading &&
      l.dir === 0 &&
      l.y0 >= heading.y1 - 0.2 * size &&
      l.x0 >= left &&
      l.x0 <= right &&
      !(exclude && centerInside(exclude, l)),
  );
  const rows = rowsOf(pool);
  const out: Line[] = [];
  let lastBottom = heading.y1;
  for (const row of rows) {
    const top = Math.min(...row.map((l) => l.y0));
    const rowSize = Math.max(...row.map((l) => l.size));
    if (top - lastBottom > Math.max(2.6 * rowSize, 1.8 * size)) break;
    if (row.some((l) => headings.has(l))) break;
    out.push(...row);
    lastBottom = Math.max(lastBottom, ...row.map((l) => l.y1));
  }
  return out;
};

const tableFromRows = (rows: readonly Line[][]): Schedule | null => {
  if (rows.length < 2) return null;
  // Header: the first row with at least two cells.
  const headerIndex = rows.findIndex((r) => r.length >= 2);
  if (headerIndex < 0) return null;
  const header = rows[headerIndex];
  if (!header) return null;
  const columns = header.map((l) => l.text.trim());
  const unique = columns.map((c, i) => (columns.indexOf(c) === i ? c : `${c} (${i + 1})`));
  const records: Array<Record<string, string>> = [];
  for (const row of rows.slice(headerIndex + 1)) {
    const record: Record<string, string> = {};
    for (const cell of row) {
      // Column whose header overlaps the cell most (else the nearest header center).
      let best = 0;
      let bestScore = Number.NEGATIVE_INFINITY;
      header.forEach((h, i) => {
        const overlap = Math.min(h.x1, cell.x1) - Math.max(h.x0, cell.x0);
        const score = overlap > 0 ? overlap : -Math.abs(centerX(h) - centerX(cell));
        if (score > bestScore) {
          bestScore = score;
          best = i;
        }
      });
      const key = unique[best] ?? `${best + 1}`;
      record[key] = record[key] ? `${record[key]} ${cell.text.trim()}` : cell.text.trim();
    }
    if (Object.keys(record).length) records.push(record);
  }
  return records.length ? { columns: unique, rows: records } : null;
};

const REVISION_HEADER_RE = /\b(?:REV(?:ISION)?S?\.?|NO\.?|#|MARK)\b/i;

/** Revision tables: a row with a number column, DESCRIPTION and DATE; rows with a date next to it. */
const findRevisionBlocks = (lines: readonly Line[]): RegionDraft[] => {
  const out: RegionDraft[] = [];
  const rows = rowsOf(lines.filter((l) => l.dir === 0));
  rows.forEach((row, i) => {
    const text = row.map((l) => l.text).join(' | ');
    if (!/\bDESCRIPTION\b/i.test(text) || !/\bDATE\b/i.test(text) || !REVISION_HEADER_RE.test(text)) return;
    const header = boxOf(row);
    const size = Math.max(...row.map((l) => l.size));
    const members: Line[][] = [];
    // Rows above or below the header with a date-like cell, within the header's horizontal extent.
    for (const dirStep of [-1, 1]) {
      let lastEdge = dirStep < 0 ? header.y0 : header.y1;
      for (let j = i + dirStep; j >= 0 && j < rows.length; j += dirStep) {
        const r = (rows[j] ?? []).filter((l) => l.x0 >= header.x0 - 2 * size && l.x1 <= header.x1 + 6 * size);
        if (!r.length) continue;
        const b = boxOf(r);
        const gap = dirStep < 0 ? lastEdge - b.y1 : b.y0 - lastEdge;
        if (gap > 3 * size) break;
        const rowText = r.map((l) => l.text).join(' ');
        if (!/\d{1,2}[/.-]\d{1,2}[/.-]\d{2,4}/.test(rowText)) break;
        members.push(r);
        lastEdge = dirStep < 0 ? b.y0 : b.y1;
      }
    }
    const revisions: Revision[] = members.map((r) => {
      const cells = r.map((l) => l.text.trim());
      const date = cells.find((c) => /\d{1,2}[/.-]\d{1,2}[/.-]\d{2,4}/.test(c)) ?? null;
      const mark = cells[0] ?? '';
      const description = cells.filter((c, k) => k > 0 && c !== date).join(' ') || null;
      return { mark, description, date };
    });
    const all = [row, ...members].flat();
    out.push({
      regionType: 'revisionBlock',
      label: 'REVISIONS',
      drawingType: null,
      box: boxOf(all),
      titleBox: header,
      lines: all,
      revisions,
    });
  });
  return out;
};

const STAMP_RE =
  /\b(?:NO\s+EXCEPTIONS\s+TAKEN|MAKE\s+CORRECTIONS\s+NOTED|REVISE\s+AND\s+RESUBMIT|REJECTED|REVIEWED\s+BY|APPROVED\s+AS\s+NOTED|FOR\s+CONSTRUCTION\s+APPROVAL|PROFESSIONAL\s+ENGINEER|REGISTERED\s+(?:ARCHITECT|ENGINEER)|LICENSED\s+(?:ARCHITECT|ENGINEER)|STATE\s+OF\s+[A-Z]+\s+REGISTERED)\b/i;

const findStamps = (lines: readonly Line[]): RegionDraft[] => {
  const hits = lines.filter((l) => STAMP_RE.test(l.text));
  if (!hits.length) return [];
  // Group hits that are close together into one stamp each.
  const groups: Line[][] = [];
  for (const h of hits) {
    const g = groups.find((grp) => {
      const b = boxOf(grp);
      return Math.abs(centerX(b) - centerX(h)) < 250 && Math.abs(centerY(b) - centerY(h)) < 250;
    });
    if (g) g.push(h);
    else groups.push([h]);
  }
  return groups.map((g) => {
    const core = boxOf(g);
    const size = Math.max(...g.map((l) => l.size));
    const around = lines.filter(
      (l) =>
        l.x0 >= core.x0 - 8 * size &&
        l.x1 <= core.x1 + 8 * size &&
        l.y0 >= core.y0 - 6 * size &&
        l.y1 <= core.y1 + 6 * size,
    );
    return {
      regionType: 'stamp' as const,
      label: (g[0]?.text ?? '').trim(),
      drawingType: null,
      box: boxOf(around),
      titleBox: null,
      lines: around,
    };
  });
};

const VIEW_NUMBER_RE = /^[A-Z]?\d{1,2}[A-Z]?$/;

/** Drawing views: a title line with a scale line under it (or on it), and a view number bubble to the left. */
const findViews = (lines: readonly Line[], words: readonly Word[], exclude: Box | null): RegionDraft[] => {
  const horizontal = lines.filter((l) => l.dir === 0 && !(exclude && centerInside(exclude, l)));
  const views: RegionDraft[] = [];
  const used = new Set<Line>();
  for (const scaleLine of horizontal) {
    const st = scaleLine.text.trim();
    const sm = SCALE_TEXT_RE.exec(st);
    if (!sm) continue;
    const size = scaleLine.size;
    const before = st
      .slice(0, sm.index)
      .replace(/\bSCALE\s*:?\s*$/i, '')
      .trim();
    let titleLine: Line | null = null;
    let titleText = '';
    if (before.replace(/[^A-Za-z]/g, '').length >= 3) {
      titleLine = scaleLine;
      titleText = before;
    } else {
      let bestDist = Number.POSITIVE_INFINITY;
      for (const l of horizontal) {
        if (l === scaleLine || used.has(l)) continue;
        const t = l.text.trim();
        if (t.replace(/[^A-Za-z]/g, '').length < 3 || SCALE_TEXT_RE.test(t)) continue;
        const dy = scaleLine.y0 - l.y1;
        const overlapX = Math.min(l.x1, scaleLine.x1) - Math.max(l.x0, scaleLine.x0);
        if (dy < -0.3 * size || dy > 2.2 * Math.max(size, l.size)) continue;
        if (overlapX < -2 * size && Math.abs(l.x0 - scaleLine.x0) > 3 * size) continue;
        if (l.size < 0.8 * size) continue;
        const dist = dy + Math.abs(l.x0 - scaleLine.x0) * 0.1;
        if (dist < bestDist) {
          bestDist = dist;
          titleLine = l;
          titleText = t;
        }
      }
    }
    if (!titleLine) continue;
    used.add(titleLine);
    const titleBoxCore = boxOf([titleLine, scaleLine]);
    // A view number: a short token left of the title, vertically within the title/scale pair.
    let number: Word | null = null;
    let bestDx = Number.POSITIVE_INFINITY;
    for (const w of words) {
      if (w.dir !== 0 || !VIEW_NUMBER_RE.test(w.text)) continue;
      if (titleLine.words.includes(w) || scaleLine.words.includes(w)) continue;
      const dx = titleBoxCore.x0 - w.x1;
      const cy = centerY(w);
      if (dx < -0.5 * w.size || dx > 6 * Math.max(size, titleLine.size)) continue;
      if (cy < titleBoxCore.y0 - titleLine.size || cy > titleBoxCore.y1 + titleLine.size) continue;
      if (dx < bestDx) {
        bestDx = dx;
        number = w;
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
    const scaleText = sm[0].trim();
    views.push({
      regionType: 'view',
      label: viewNumber ? `${viewNumber} ${titleText}` : titleText,
      drawingType: drawingTypeOf(titleText),
      box: titleBox,
      titleBox,
      lines: [titleLine, scaleLine].filter((l, i, a) => a.indexOf(l) === i),
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
const estimateViewExtents = (
  views: RegionDraft[],
  pageWidth: number,
  pageHeight: number,
  titleBlock: Box | null,
): void => {
  const limitRight = titleBlock && height(titleBlock) > pageHeight * 0.5 ? titleBlock.x0 : pageWidth;
  const limitBottom = titleBlock && height(titleBlock) <= pageHeight * 0.5 ? titleBlock.y0 : pageHeight;
  for (const v of views) {
    const t = v.titleBox;
    if (!t) continue;
    let top = pageHeight * 0.02;
    let left = pageWidth * 0.02;
    let right = limitRight;
    for (const o of views) {
      const ot = o.titleBox;
      if (o === v || !ot) continue;
      const overlapX = Math.min(ot.x1 + 400, t.x1 + 400) - Math.max(ot.x0, t.x0);
      if (ot.y1 < t.y0 && overlapX > 0) top = Math.max(top, ot.y1 + 4);
      if (Math.abs(centerY(ot) - centerY(t)) < height(t) * 4) {
        if (ot.x0 > t.x1) right = Math.min(right, ot.x0 - 4);
        if (ot.x1 < t.x0) left = Math.max(left, ot.x1 + 4);
      }
    }
    v.box = {
      x0: Math.min(left, t.x0),
      y0: Math.min(top, t.y0),
      x1: Math.max(right, t.x1),
      y1: Math.min(Math.max(t.y1 + 2, t.y1), limitBottom),
    };
  }
};

export const findRegions = (
  lines: readonly Line[],
  words: readonly Word[],
  titleBlock: Box | null,
  pageWidth: number,
  pageHeight: number,
): RegionDraft[] => {
  const typical = median(words.filter((w) => w.dir === 0).map((w) => w.size)) || 10;
  const regions: RegionDraft[] = [];
  if (titleBlock) {
    const inside = lines.filter((l) => centerInside(titleBlock, l));
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
  for (const l of lines) {
    if (l.dir !== 0 || joined.has(l) || (titleBlock && centerInside(titleBlock, l))) continue;
    let kind = headingKind(l, typical, lines);
    const below = continuationBelow(l, lines);
    if (below && (kind || /(?:&|\bAND)$/i.test(l.text.trim()))) {
      const merged: Line = {
        ...boxOf([l, below]),
        words: [...l.words, ...below.words],
        text: `${l.text.trim()} ${below.text.trim()}`,
        size: l.size,
        dir: l.dir,
      };
      kind =
        headingKind(
          { ...merged, y0: l.y0 },
          typical,
          lines.filter((o) => o !== l),
        ) ?? kind;
      if (kind) {
        joined.add(below);
        headingLines.delete(below);
        headingLines.set(merged, kind);
        continue;
      }
    }
    if (kind) headingLines.set(l, kind);
  }
  for (const l of joined) headingLines.delete(l);
  // A keynote heading without numbered entries under it is a stray word (a legend label): not a heading.
  for (const [heading, type] of [...headingLines]) {
    if (type !== 'keynotes') continue;
    const body = bodyUnder(heading, lines, new Set(), titleBlock, pageWidth, false);
    if (parseNumberedEntries(rowsOf(body).map((r) => r.map((l) => l.text).join(' '))).length === 0) {
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
      region.keynotes = parseNumberedEntries(rows.map((r) => r.map((l) => l.text).join(' ')));
    }
    regions.push(region);
  }
  regions.push(...findRevisionBlocks(lines));
  regions.push(...findStamps(lines));
  const views = findViews(lines, words, titleBlock);
  estimateViewExtents(views, pageWidth, pageHeight, titleBlock);
  regions.push(...views);
  if (views.length === 0) {
    // A sheet with one drawing titled only in its title block (a floor plan, a site plan): its drawing area
    // is its one view, so its callouts and labels belong to a region too.
    const free = lines.filter(
      (l) => !(titleBlock && centerInside(titleBlock, l)) && !regions.some((r) => centerInside(r.box, l)),
    );
    if (free.reduce((n, l) => n + l.words.length, 0) >= DRAWING_AREA_MIN_WORDS) {
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
    (r, i) =>
      !regions.some(
        (o, j) =>
          j !== i &&
          o.regionType === r.regionType &&
          o.regionType !== 'view' &&
          contains(o.box, r.box) &&
          (j < i || !contains(r.box, o.box)),
      ),
  );
};
