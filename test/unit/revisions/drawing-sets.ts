/**
 * Synthetic drawing sets for revision matching: the printed lines of sheets that share a title block and
 * general notes, as the sheets of one set do, each with its own plan text. Generic words, seeded.
 */

import type { SheetForMatching } from '../../../functions/core/revisions/model.ts';
import { sheetForMatching } from '../../../functions/core/revisions/sheet-for-matching.ts';
import type { Revision } from '../../../functions/engine/model.ts';

/** mulberry32: a small seeded generator, so every run builds the same sheets. */
export const seeded = (seed: number) => {
  let state = seed >>> 0;
  return (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
};

const ROOMS = [
  'OFFICE',
  'CORRIDOR',
  'STORAGE',
  'MECHANICAL',
  'TOILET',
  'LOBBY',
  'CLASSROOM',
  'JANITOR',
  'ELECTRICAL',
  'CONFERENCE',
  'BREAK ROOM',
  'STAIR',
];
const NOTES = [
  'PROVIDE BLOCKING FOR WALL MOUNTED EQUIPMENT',
  'PATCH AND REPAIR EXISTING FINISHES TO MATCH',
  'ALIGN FACE OF NEW WALL WITH EXISTING',
  'EXTEND PARTITION TO UNDERSIDE OF DECK ABOVE',
  'INSTALL ACOUSTIC INSULATION IN STUD CAVITY',
  'VERIFY ROUGH OPENING WITH DOOR SUPPLIER',
  'SEAL ALL PENETRATIONS WITH RATED SEALANT',
  'REMOVE EXISTING FLOORING DOWN TO SLAB',
  'PROVIDE CONTROL JOINT AT MAXIMUM SPACING',
  'COORDINATE CEILING HEIGHT WITH DUCTWORK',
];

export const titleBlockLines = [
  'NORTHFIELD ARCHITECTS AND ENGINEERS',
  '1200 EXAMPLE AVENUE SUITE 400',
  'RIVERTON COMMUNITY CENTER RENOVATION',
  'PROJECT NO 2024-118',
  'DRAWN BY JD CHECKED BY KL',
  'ISSUED FOR CONSTRUCTION',
];

export const generalNoteLines = [
  'GENERAL NOTES',
  '1. ALL DIMENSIONS ARE TO FACE OF STUD UNLESS NOTED OTHERWISE',
  '2. CONTRACTOR SHALL VERIFY ALL CONDITIONS IN THE FIELD',
  '3. DO NOT SCALE DRAWINGS USE WRITTEN DIMENSIONS',
  '4. SEE SPECIFICATIONS FOR FINISHES AND MATERIALS',
];

/** A sheet's own plan text: rooms with numbers, dimensions, keyed notes, door tags. */
export const planLines = (random: () => number, count = 45): string[] => {
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;
  const int = (low: number, high: number) => low + Math.floor(random() * (high - low + 1));
  return Array.from({ length: count }, () => {
    const kind = random();
    if (kind < 0.3) return `${pick(ROOMS)} ${int(100, 399)}`;
    if (kind < 0.55) return `${int(2, 40)}'-${int(0, 11)}" CLR`;
    if (kind < 0.8)
      return `${int(1, 30)}. ${pick(NOTES)} AT GRID ${String.fromCharCode(65 + int(0, 11))}-${int(1, 12)}`;
    return `DOOR ${int(100, 399)}${String.fromCharCode(65 + int(0, 3))} TYPE ${int(1, 9)} HM FRAME`;
  });
};

export interface DrawnSheet {
  number: string | null;
  /** How sure the reading is of the number (1 unless a test says otherwise). */
  numberConfidence?: number;
  title: string | null;
  discipline: string | null;
  revisions: Revision[];
  fileName: string;
  lines: string[];
}

export const ISSUE_ROW: Revision = { mark: '1', description: 'ISSUED FOR PERMIT', date: '02/03/2025' };

/** A set of `count` sheets A-101.. sharing a title block and general notes, each with its own plan text. */
export const drawingSet = (count: number, seed: number, fileName = 'bid-set.pdf'): DrawnSheet[] => {
  const random = seeded(seed);
  return Array.from({ length: count }, (_, index) => ({
    number: `A-${101 + index}`,
    title: `LEVEL ${index + 1} FLOOR PLAN`,
    discipline: 'A',
    revisions: [ISSUE_ROW],
    fileName,
    lines: [...titleBlockLines, ...generalNoteLines, `LEVEL ${index + 1} FLOOR PLAN`, ...planLines(random)],
  }));
};

/**
 * The sheet as a revision prints it: a new revision row, `edited` of its plan lines reworded (a number
 * changed), a new note, the lines in another order (text moved), another file name.
 */
export const revise = (sheet: DrawnSheet, seed: number, edited = 0.2): DrawnSheet => {
  const random = seeded(seed);
  const lines = sheet.lines.map((line, index) =>
    index > titleBlockLines.length + generalNoteLines.length && random() < edited
      ? line.replace(/\d+/, (digits) => String(Number(digits) + 7))
      : line,
  );
  lines.push('ADD FIRE EXTINGUISHER CABINET PER REVISION 2');
  lines.reverse();
  return {
    ...sheet,
    revisions: [...sheet.revisions, { mark: '2', description: 'ADDENDUM 2', date: '03/14/2025' }],
    fileName: 'ASI-07 revised sheets.pdf',
    lines,
  };
};

export const forMatching = (sheet: DrawnSheet, id: string): SheetForMatching =>
  sheetForMatching({
    id,
    sheet: {
      sheetNumber: sheet.number,
      confidence: sheet.numberConfidence ?? 1,
      sheetTitle: sheet.title,
      discipline: sheet.discipline
        ? { code: sheet.discipline, label: '', printedPrefix: sheet.discipline, setSpecific: false }
        : null,
      revisions: sheet.revisions,
      pageSize: { width: 2592, height: 1728, name: 'ARCH D' },
    },
    fileName: sheet.fileName,
    lines: sheet.lines,
  });
