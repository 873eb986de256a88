/**
 * A region as found on a sheet before it becomes a `Region` (see model.ts), and what the region finders share:
 * rows of lines, and the kind of drawing a title names.
 */
import { type Box, centerY, type Line } from './geometry.ts';
import type { DrawingType, Keynote, RegionType, Revision, Schedule } from './model.ts';

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

/** Groups lines into rows (same vertical band), top to bottom. */
export const rowsOf = (lines: readonly Line[]): Line[][] => {
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
