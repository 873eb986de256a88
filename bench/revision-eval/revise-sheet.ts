/**
 * A revision of one drawing sheet, drawn with pdf-lib on a copy of its page: what an architect's revision
 * does to a sheet, from the engine's own reading of it (its lines, its regions, its title's box).
 *
 * - a new row in the revision block (mark, description, date under the block's own headings; a block of its
 *   own beside the title block when the sheet prints none),
 * - lines of the drawing area edited (taken off and printed again with a number changed or a word added),
 *   moved (taken off and printed a little away), and one area's text deleted, a note added,
 * - sometimes a new title (the old one taken off, a reworded one printed in its place),
 * - sometimes no number: taken off the title block, as on a sheet whose number a reading misses (a scan, a
 *   stamp over it); new sheets of the set get that too, so that content alone must tell them apart.
 *
 * Text is taken off the content stream (text-removal.ts), so the engine does not read it any more.
 */

import { degrees, type PDFDocument, type PDFFont, type PDFPage, rgb } from 'pdf-lib';
import type { PageResult, Sheet } from '../../functions/engine/index.ts';
import { type DisplayBox, displayTransform, removeTextIn } from './text-removal.ts';

type Line = PageResult['lines'][number];

export interface PrintedText {
  text: string;
  /** Display space: the left end of the baseline. */
  x: number;
  y: number;
  size: number;
}

export interface RevisionPlan {
  removals: DisplayBox[];
  additions: PrintedText[];
  /** The row the revision adds, as the block prints it; null for a sheet only its number is taken off. */
  row: { mark: string; description: string; date: string } | null;
  newTitle: string | null;
  /** The sheet number taken off the title block (as on a sheet whose number a reading misses). */
  numberTakenOff: boolean;
  /** The drawing-area lines the plan takes off (edited, moved, deleted), as the engine read them. */
  takenOff: { text: string; box: DisplayBox }[];
}

const toBox = (box: { left: number; top: number; right: number; bottom: number }): DisplayBox => ({
  x0: box.left,
  y0: box.top,
  x1: box.right,
  y1: box.bottom,
});
export const overlaps = (a: DisplayBox, b: DisplayBox, slack = 0) =>
  a.x0 < b.x1 + slack && b.x0 < a.x1 + slack && a.y0 < b.y1 + slack && b.y0 < a.y1 + slack;
const inside = (box: DisplayBox, outer: DisplayBox) =>
  box.x0 >= outer.x0 && box.x1 <= outer.x1 && box.y0 >= outer.y0 && box.y1 <= outer.y1;
const grow = (box: DisplayBox, by: number): DisplayBox => ({
  x0: box.x0 - by,
  y0: box.y0 - by,
  x1: box.x1 + by,
  y1: box.y1 + by,
});

const DATE_RE = /\d{1,2}[/.-]\d{1,2}[/.-]\d{2,4}/;
const NOTE_WORDS = [
  'PROVIDE ACCESS PANEL AT VALVE LOCATION',
  'RELOCATE EXISTING DEVICE TO NEW WALL',
  'VERIFY CLEARANCE WITH EQUIPMENT SUPPLIER',
  'ADD BLOCKING FOR GRAB BAR',
  'REVISED OPENING SIZE SEE DETAIL',
];
const TITLE_QUALIFIERS = ['AND DETAILS', '- REVISED', 'ENLARGED', '- PHASE 2', 'AND NOTES'];

/** An edit of a printed line: a number changed, or a word added where it prints none. */
const editedText = (text: string, random: () => number): string =>
  /\d/.test(text)
    ? text.replace(/\d+/, (digits) => String(Number(digits) + 1 + Math.floor(random() * 8)))
    : `${text} (REVISED)`;

/** A reworded title: a qualifier added, or its last word swapped for one. */
const rewordedTitle = (title: string, random: () => number): string => {
  const qualifier = TITLE_QUALIFIERS[Math.floor(random() * TITLE_QUALIFIERS.length)] as string;
  const words = title.trim().split(/\s+/);
  return random() < 0.5 || words.length < 3
    ? `${title.trim()} ${qualifier}`
    : `${words.slice(0, -1).join(' ')} ${qualifier}`;
};

const sample = <T>(items: readonly T[], count: number, random: () => number): T[] => {
  const pool = [...items];
  const out: T[] = [];
  while (out.length < count && pool.length > 0)
    out.push(pool.splice(Math.floor(random() * pool.length), 1)[0] as T);
  return out;
};

/**
 * What to change on the sheet. `revision` numbers the new row (after the block's own last mark when it is a
 * number); `changeTitle` rewords the title.
 */
export const planRevision = (input: {
  sheet: Sheet;
  page: PageResult;
  random: () => number;
  changeTitle: boolean;
  takeNumberOff: boolean;
  date: string;
}): RevisionPlan => {
  const { sheet, page, random } = input;
  const width = page.rotation % 180 === 0 ? page.width : page.height;
  const height = page.rotation % 180 === 0 ? page.height : page.width;
  const kept = sheet.regions
    .filter((region) => ['titleBlock', 'revisionBlock', 'stamp', 'sheetIndex'].includes(region.regionType))
    .map((region) => toBox(region.displayBox));
  for (const box of [sheet.sheetNumberBox, sheet.sheetTitleBox]) if (box) kept.push(grow(toBox(box), 4));
  const drawingLines = page.lines.filter(
    (line) => line.text.trim().length >= 3 && !kept.some((box) => overlaps(box, line, 2)),
  );
  const additions: PrintedText[] = [];
  const removals: DisplayBox[] = [];
  const taken = new Set<Line>();
  const takeOff = (line: Line) => {
    taken.add(line);
    removals.push(grow(line, 1));
  };
  const baseline = (line: Line) => ({
    x: line.x0,
    y: line.y1 - 0.2 * (line.y1 - line.y0),
    size: Math.max(4, line.size),
  });

  // Edited lines, printed again where they were.
  for (const line of sample(drawingLines, 2 + Math.floor(random() * 3), random)) {
    takeOff(line);
    additions.push({ text: editedText(line.text, random), ...baseline(line) });
  }
  // Moved lines, printed 3 to 8 % of the sheet away (kept on the sheet and off the kept boxes).
  for (const line of sample(
    drawingLines.filter((line) => !taken.has(line)),
    2 + Math.floor(random() * 2),
    random,
  )) {
    const dx = (random() < 0.5 ? -1 : 1) * (0.03 + random() * 0.05) * width;
    const dy = (random() < 0.5 ? -1 : 1) * (0.03 + random() * 0.05) * height;
    const moved = { x0: line.x0 + dx, y0: line.y0 + dy, x1: line.x1 + dx, y1: line.y1 + dy };
    if (
      !inside(moved, { x0: 0, y0: 0, x1: width, y1: height }) ||
      kept.some((box) => overlaps(box, moved, 4))
    )
      continue;
    takeOff(line);
    const at = baseline(line);
    additions.push({ text: line.text, x: at.x + dx, y: at.y + dy, size: at.size });
  }
  // One area's text deleted (a detail taken out), a note printed in its place.
  const anchor = sample(
    drawingLines.filter((line) => !taken.has(line)),
    1,
    random,
  )[0];
  if (anchor) {
    const area = {
      x0: anchor.x0 - 0.04 * width,
      y0: anchor.y0 - 0.03 * height,
      x1: anchor.x0 + 0.08 * width,
      y1: anchor.y0 + 0.05 * height,
    };
    if (!kept.some((box) => overlaps(box, area))) {
      for (const line of drawingLines) if (!taken.has(line) && inside(line, area)) takeOff(line);
      const size = Math.max(5, anchor.size);
      const note = NOTE_WORDS[Math.floor(random() * NOTE_WORDS.length)] as string;
      additions.push({ text: `REVISION NOTE: ${note}`, x: area.x0 + size, y: area.y0 + 2 * size, size });
    }
  }

  // The revision row: under the block's own headings, next to its rows, else a block beside the title block.
  const block = sheet.regions.find((region) => region.regionType === 'revisionBlock');
  const lastMark = sheet.revisions
    .map((revision) => Number(revision.mark))
    .filter(Number.isFinite)
    .at(-1);
  const mark = String((lastMark ?? 0) + 1);
  const description = `ADDENDUM ${mark} REVISIONS`;
  const row = { mark, description, date: input.date };
  if (block) {
    const box = toBox(block.displayBox);
    const header = block.titleDisplayBox ? toBox(block.titleDisplayBox) : box;
    const blockLines = page.lines.filter((line) => overlaps(box, line, 1));
    const headingAt = (word: RegExp) =>
      blockLines.find((line) => word.test(line.text) && overlaps(header, line, 2));
    const rows = blockLines.filter((line) => DATE_RE.test(line.text));
    const pitch = Math.max(6, (header.y1 - header.y0) * 1.4);
    const size = Math.max(4, (headingAt(/DESCRIPTION/i)?.size ?? pitch / 1.6) * 0.9);
    // Rows fill away from the headings: toward the rows already printed, else toward the room the title
    // block leaves (a block whose headings sit at its foot fills upward).
    const frame =
      sheet.regions
        .filter((region) => region.regionType === 'titleBlock')
        .map((region) => toBox(region.displayBox))
        .find((candidate) => overlaps(candidate, header)) ?? box;
    const upward =
      rows.length > 0
        ? rows.every((line) => line.y1 <= header.y0 + 1)
        : header.y0 - Math.min(frame.y0, box.y0) >= Math.max(frame.y1, box.y1) - header.y1;
    const y = upward
      ? Math.min(header.y0, ...rows.map((line) => line.y0)) - pitch * 0.4
      : Math.max(header.y1, ...rows.map((line) => line.y1)) + pitch * 0.9;
    // A heading that names the mark and the description together (`REV: ISSUED FOR / DESCRIPTION:`) prints
    // the description after the mark's column.
    const descriptionHeading = headingAt(/DESCRIPTION/i);
    const descriptionX = descriptionHeading
      ? /\b(?:REV|NO|MARK)\b|#/i.test(descriptionHeading.text)
        ? descriptionHeading.x0 + 0.45 * (descriptionHeading.x1 - descriptionHeading.x0)
        : descriptionHeading.x0
      : header.x0 + 0.15 * (header.x1 - header.x0);
    additions.push(
      { text: mark, x: header.x0 + 1, y, size },
      { text: description, x: descriptionX, y, size },
      {
        text: input.date,
        x: headingAt(/\bDATE\b/i)?.x0 ?? header.x0 + 0.75 * (header.x1 - header.x0),
        y,
        size,
      },
    );
  } else {
    const title = sheet.regions.find((region) => region.regionType === 'titleBlock');
    const frame = title
      ? toBox(title.displayBox)
      : { x0: 0.75 * width, y0: 0.8 * height, x1: width, y1: height };
    const size = Math.max(6, Math.min(10, 0.006 * height));
    const blockWidth = 40 * size;
    const tall = frame.y1 - frame.y0 > frame.x1 - frame.x0;
    const x = tall ? frame.x0 - blockWidth - 2 * size : Math.max(0, frame.x1 - blockWidth);
    const y = tall ? frame.y1 - 4 * size : frame.y0 - 3 * size;
    for (const [text, offset] of [
      ['REV', 0],
      ['DESCRIPTION', 5 * size],
      ['DATE', 30 * size],
    ] as const)
      additions.push({ text, x: x + offset, y: y - 1.6 * size, size });
    additions.push(
      { text: mark, x, y, size },
      { text: description, x: x + 5 * size, y, size },
      { text: input.date, x: x + 30 * size, y, size },
    );
  }

  let newTitle: string | null = null;
  if (input.changeTitle && sheet.sheetTitle && sheet.sheetTitleBox) {
    newTitle = rewordedTitle(sheet.sheetTitle, random);
    const box = toBox(sheet.sheetTitleBox);
    removals.push(grow(box, 1));
    const titleLines = page.lines.filter((line) => overlaps(box, line, 1));
    const size = Math.max(5, ...titleLines.map((line) => line.size));
    additions.push({ text: newTitle, x: box.x0, y: Math.min(box.y1, box.y0 + size), size });
  }
  const numberTakenOff = input.takeNumberOff && sheet.sheetNumberBox !== null;
  if (numberTakenOff && sheet.sheetNumberBox) removals.push(grow(toBox(sheet.sheetNumberBox), 1));
  return {
    removals,
    additions,
    row,
    newTitle,
    numberTakenOff,
    takenOff: [...taken].map((line) => ({
      text: line.text,
      box: { x0: line.x0, y0: line.y0, x1: line.x1, y1: line.y1 },
    })),
  };
};

/** A sheet left as it was but for its number, taken off the title block; null when none was read. */
export const planNumberTakenOff = (sheet: Sheet): RevisionPlan | null =>
  sheet.sheetNumberBox
    ? {
        removals: [grow(toBox(sheet.sheetNumberBox), 1)],
        additions: [],
        row: null,
        newTitle: null,
        numberTakenOff: true,
        takenOff: [],
      }
    : null;

/** Draws the plan on a page (a copy of the sheet's page in `doc`); returns the text operators emptied. */
export const applyRevision = (doc: PDFDocument, page: PDFPage, plan: RevisionPlan, font: PDFFont): number => {
  const emptied = removeTextIn(doc, page, plan.removals);
  const { rotation, toUser } = displayTransform(page);
  for (const addition of plan.additions) {
    const [x, y] = toUser(addition.x, addition.y);
    // Helvetica prints WinAnsi: what the engine read in another encoding is printed without it.
    const text = addition.text.replace(/[^\x20-\x7E\xA0-\xFF]/g, '');
    page.drawText(text, {
      x,
      y,
      size: addition.size,
      font,
      color: rgb(0, 0, 0),
      rotate: degrees(rotation),
    });
  }
  return emptied;
};
