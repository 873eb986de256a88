/**
 * Sheet numbers (as printed in title blocks) and US National CAD Standard discipline designators.
 */
import type { Discipline } from '../model.ts';

export const NCS_DISCIPLINES: Readonly<Record<string, string>> = {
  G: 'General',
  H: 'Hazardous Materials',
  V: 'Survey / Mapping',
  B: 'Geotechnical',
  W: 'Civil Works',
  C: 'Civil',
  L: 'Landscape',
  S: 'Structural',
  A: 'Architectural',
  I: 'Interiors',
  Q: 'Equipment',
  F: 'Fire Protection',
  P: 'Plumbing',
  D: 'Process',
  M: 'Mechanical',
  E: 'Electrical',
  T: 'Telecommunications',
  R: 'Resource',
  X: 'Other Disciplines',
  Z: 'Contractor / Shop Drawings',
  O: 'Operations',
};

/**
 * Prefixes that sets use outside the NCS list, mapped to the nearest designator. Two-letter NCS prefixes
 * (AF, AD, EP, FP, ...) are a designator plus a modifier and map to their first letter.
 */
const SET_SPECIFIC: Readonly<Record<string, string>> = {
  CR: 'C', // curb ramps
  SW: 'C', // sewer
  SD: 'C', // storm drain
  SS: 'C', // sanitary sewer
  U: 'C', // utilities
  UT: 'C',
  WS: 'C', // water system
  RD: 'C', // roadway
  TR: 'C',
  TS: 'C', // traffic signals (civil works)
  TCP: 'T', // traffic-control plans (traffic, as road sets use T)
  SH: 'Z', // shop drawings
  K: 'Q', // kitchen equipment (food service)
  FS: 'Q',
  FA: 'F', // fire alarm is fire protection in most sets
  FP: 'F',
  LS: 'G', // life safety
  LV: 'T', // low voltage
  SEC: 'T', // security
  AV: 'T',
  DEMO: 'A',
  ID: 'I',
  CS: 'G', // cover sheet
  TI: 'G', // title sheet
  GI: 'G',
};

/**
 * Set-specific prefixes whose NCS meaning differs in roadway/traffic sets (R = Resource and PR = a plumbing
 * modifier elsewhere; roadway and pavement restoration there; T = Telecom elsewhere, traffic there).
 */
const ROAD_SET_PREFIXES: Readonly<Record<string, string>> = { R: 'C', T: 'T', U: 'C', PR: 'C' };

export interface ParsedSheetNumber {
  printed: string;
  prefix: string;
  normalized: string;
}

const SHEET_NUMBER_RES: readonly RegExp[] = [
  // A-101, AF101, A2.3, E001, C6, S-101, G-0, T-1, A101a, M-501.1, FP-1.01
  /^([A-Z]{1,3})[-.\u2010-\u2013]?(\d{1,4}(?:\.\d{1,3})?[A-Za-z]?)$/,
  // SW-G1, R-G1, CR-01A
  /^([A-Z]{1,3})[-\u2010-\u2013]([A-Z]\d{1,3})$/,
  // A1-01, E2-101
  /^([A-Z]{1,2}\d)[-.](\d{1,3})$/,
  // TCP: 032 (submittal sheet ids printed as label: number)
  /^([A-Z]{2,4}):\s?(\d{2,4})$/,
];

/** Words that match the pattern but are not sheet numbers (units, steel shapes, common abbreviations). */
const NOT_SHEET =
  /^(?:NO\.?\d*|NO-?\d+|CO2|H2O|PH\d?|FL\d?|EL\.?\d*|LVL\d*|TYP\d*|MIN\d*|MAX\d*|OF\d*|DN\d*|UP\d*|W\d{1,2}|L\d|HP\d*|TS\d*|PL\d?|PT\d*|CJ\d*|EJ\d*|CMU\d*|RM\d*|AM\d*|PM\d*|ZIP\d*|PO\d*)$/i;

export const parseSheetNumber = (text: string): ParsedSheetNumber | null => {
  // Dash runs collapse to one hyphen (OCR reads a long drawn dash as `—-`).
  const printed = text
    .trim()
    .replace(/[\u2010-\u2015\u2212]/g, '-')
    .replace(/-{2,}/g, '-');
  if (printed.length < 2 || printed.length > 12) return null;
  for (const re of SHEET_NUMBER_RES) {
    const match = re.exec(printed);
    if (!match) continue;
    if (NOT_SHEET.test(printed)) return null;
    const prefix = (match[1] ?? '').replace(/\d$/, '');
    return { printed, prefix, normalized: normalizeSheetNumber(printed) };
  }
  return null;
};

/**
 * A sheet identifier of several parts, as firms that put the project number or the document kind into the
 * number print it (`4977_S_DW01`, `1234-A-101`, `COV-S`, `MM16169_U-0001`): two to five parts of letters and
 * digits joined by `-`, `_` or `.`. The NCS designator is the part made of one or two letters that names a
 * discipline (`S` of `4977_S_DW01`), else the letters that start the last lettered part. Too loose to pass for
 * a number on its own (`A-A` is a section cut, `N-S` a direction): only read under a number field's label.
 */
const COMPOUND_RE = /^[A-Z0-9]{1,8}(?:[-_.][A-Z0-9]{1,8}){1,4}$/;
export const parseCompoundSheetNumber = (text: string): ParsedSheetNumber | null => {
  const printed = text.trim().replace(/[\u2010-\u2015\u2212]/g, '-');
  if (printed.length < 4 || printed.length > 20 || !COMPOUND_RE.test(printed)) return null;
  const parts = printed.split(/[-_.]/);
  // Every part a single letter or two (`A-A`, `N-S`, `E-W`) is a cut or a direction, not an identifier.
  if (parts.every((part) => /^[A-Z]{1,2}$/.test(part))) return null;
  if (!/[A-Z]/.test(printed)) return null;
  const designator = parts.find((part) => /^[A-Z]{1,2}$/.test(part) && disciplineOf(part) !== null);
  const lettered = parts.filter((part) => /^[A-Z]/.test(part)).at(-1) ?? '';
  const prefix = designator ?? /^[A-Z]+/.exec(lettered)?.[0] ?? '';
  return { printed, prefix, normalized: normalizeSheetNumber(printed) };
};

/** Uppercase, no spaces; keeps hyphens and dots (A-101 and A101 are different printed numbers). */
export const normalizeSheetNumber = (text: string): string =>
  text
    .toUpperCase()
    .replace(/[\u2010-\u2015\u2212]/g, '-')
    .replace(/\s+/g, '')
    .replace(/:/g, '-');

/** Discipline of a sheet number prefix: NCS designator, label, and whether the prefix is set-specific. */
export const disciplineOf = (prefix: string, setPrefixes?: ReadonlySet<string>): Discipline | null => {
  const letters = prefix.toUpperCase().replace(/[^A-Z]/g, '');
  if (!letters) return null;
  const mapped = SET_SPECIFIC[letters];
  if (mapped) {
    return {
      code: mapped,
      label: NCS_DISCIPLINES[mapped] ?? mapped,
      printedPrefix: letters,
      setSpecific: true,
    };
  }
  // A set that also uses roadway/curb/sewer prefixes uses R and U for roads and utilities, not Resource.
  const roadSet =
    setPrefixes && [...setPrefixes].some((setPrefix) => ['CR', 'SW', 'SD', 'SS', 'RD'].includes(setPrefix));
  const roadCode = ROAD_SET_PREFIXES[letters];
  if (roadSet && roadCode) {
    const label = NCS_DISCIPLINES[roadCode] ?? roadCode;
    return {
      code: roadCode,
      label,
      printedPrefix: letters,
      setSpecific: roadCode !== letters || letters === 'T',
    };
  }
  const whole = NCS_DISCIPLINES[letters];
  if (whole) return { code: letters, label: whole, printedPrefix: letters, setSpecific: false };
  const first = letters.charAt(0);
  const byFirstLetter = NCS_DISCIPLINES[first];
  if (byFirstLetter)
    return { code: first, label: byFirstLetter, printedPrefix: letters, setSpecific: letters.length > 2 };
  return null;
};
