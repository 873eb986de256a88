/**
 * A region as found on a sheet before it becomes a `Region` (see model.ts), and what the region finders share:
 * rows of lines, and the kind of drawing a title names.
 */
import { type Box, centerY, type Line } from '../geometry.ts';
import type { DrawingType, Keynote, RegionType, Revision, Schedule } from '../model.ts';
import type { TableRead } from './tables.ts';

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
  /** The ruled table the region prints (tables.ts). */
  table?: TableRead;
  revisions?: Revision[];
  /** The whole drawing area of a sheet without titled views: its title is the sheet title (set level). */
  drawingArea?: boolean;
}

export const drawingTypeOf = (title: string): DrawingType | null => {
  const upper = title.toUpperCase();
  if (/\bSCHEDULE\b/.test(upper)) return 'schedule';
  if (/\bDETAILS?\b|\bDET\.?\b/.test(upper)) return 'detail';
  if (/\bELEVATIONS?\b|\bELEV\.?\b/.test(upper)) return 'elevation';
  if (/\bSECTIONS?\b|\bSECT\.?\b/.test(upper)) return 'section';
  if (/\bPROFILES?\b/.test(upper)) return 'profile';
  if (/\bDIAGRAMS?\b|\bRISER\b|\bONE[- ]LINE\b/.test(upper)) return 'diagram';
  if (/\bSCHEMATICS?\b/.test(upper)) return 'schematic';
  if (/\bPERSPECTIVE|ISOMETRIC|AXON|RENDERING|3D\b/.test(upper)) return 'perspective';
  if (/\bMAP\b/.test(upper)) return 'map';
  if (
    /\bPLANS?\b|\bFLOOR\b|\bROOF\b|\bLAYOUT\b|\bSITE\b|\bCEILING\b|\bRCP\b|\bFOUNDATION\b|\bFRAMING\b/.test(
      upper,
    )
  )
    return 'plan';
  return null;
};

/** Groups lines into rows (same vertical band), top to bottom. */
export const rowsOf = (lines: readonly Line[]): Line[][] => {
  const sorted = [...lines].sort((a, b) => centerY(a) - centerY(b));
  const rows: Line[][] = [];
  for (const line of sorted) {
    const row = rows[rows.length - 1];
    const first = row?.[0];
    if (row && first && Math.abs(centerY(first) - centerY(line)) < 0.5 * Math.min(first.size, line.size))
      row.push(line);
    else rows.push([line]);
  }
  for (const row of rows) row.sort((a, b) => a.x0 - b.x0);
  return rows;
};

/** The engine's id of a region: its page, type and position among the page's regions. */
export const engineRegionId = (pageNumber: number, regionType: string, index: number): string =>
  `p${pageNumber}-${regionType}-${index + 1}`;
