/**
 * The discipline of a sheet whose number carries no discipline prefix (a standard plan's file number, a site
 * plan identified only as `SHEET 1 OF 1`), read from the kind of drawing its title names. A prefix, when there
 * is one, always decides: titles name objects that several disciplines draw.
 */
import type { Discipline } from '../model.ts';
import { NCS_DISCIPLINES } from './sheet-number.ts';

/**
 * Title words and the NCS designator they point to, most specific first: a discipline named outright, then
 * the objects and drawings only one discipline draws (a site plan, grading, a sewer or a curb is civil work).
 */
const TITLE_DISCIPLINES: ReadonlyArray<[RegExp, string]> = [
  [/\bFIRE\s+(?:PROTECTION|SPRINKLER|ALARM)|\bSPRINKLERS?\b/, 'F'],
  [/\bPLUMBING\b|\bSANITARY\s+RISER/, 'P'],
  [/\bMECHANICAL\b|\bHVAC\b|\bDUCTWORK\b/, 'M'],
  [/\bELECTRICAL\b|\bLIGHTING\b|\bPOWER\s+PLAN|\bPANEL\s+SCHEDULES?\b/, 'E'],
  [/\bSTRUCTURAL\b|\bFOUNDATION\b|\bFRAMING\b/, 'S'],
  [/\bLANDSCAPE\b|\bPLANTING\b|\bIRRIGATION\b/, 'L'],
  [/\bTRAFFIC\b|\bSTRIPING\b|\bSIGNAL(?:S|IZATION)?\b|\bSPEED\s+HUMPS?\b/, 'T'],
  [
    /\bSITE\s+(?:PLAN|WORK|UTILIT)|\bGRADING\b|\bEROSION\b|\bPAV(?:ING|EMENT)\b|\bRESURFACING\b|\bCOLD\s+PLANING\b|\bSEWERS?\b|\bSTORM\s+(?:DRAIN|SEWER|WATER)|\bDRAINAGE\b|\bCATCH\s+BASINS?\b|\bMANHOLES?\b|\bWATER\s+MAINS?\b|\bCURBS?\b|\bSIDEWALKS?\b|\bDRIVEWAYS?\b|\bROADWAY\b|\bBUS\s+PADS?\b|\bTRENCH\b|\bPLAN\s+AND\s+PROFILES?\b/,
    'C',
  ],
  [
    /\bFLOOR\s+PLANS?\b|\bROOF\s+PLANS?\b|\bREFLECTED\s+CEILING|\bBUILDING\s+(?:ELEVATIONS?|SECTIONS?)\b|\bWALL\s+SECTIONS?\b|\bDOOR\s+SCHEDULE|\bFINISH\s+(?:PLAN|SCHEDULE)/,
    'A',
  ],
  [/\bCOVER\s+SHEET\b|\bTITLE\s+SHEET\b|\b(?:SHEET|DRAWING)\s+INDEX\b|\bINDEX\s+OF\s+DRAWINGS\b/, 'G'],
];

/** The discipline a sheet title names, or null when it names none of the kinds above. */
export const disciplineFromTitle = (title: string | null): Discipline | null => {
  if (!title) return null;
  const upper = title.toUpperCase();
  for (const [pattern, code] of TITLE_DISCIPLINES) {
    if (pattern.test(upper))
      return { code, label: NCS_DISCIPLINES[code] ?? code, printedPrefix: '', setSpecific: false };
  }
  return null;
};
