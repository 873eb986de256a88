/**
 * Schedules drawn as ruled tables take the table's box: the heading and the run of horizontal rulings of one
 * length under it (the table's row lines), down to the last row line before a gap, a line of another length
 * or another region's heading. Text alone gives a schedule's box only as far as its column of lines reaches,
 * which on a wide table is a guess.
 */
import { area, type Box, boxOf, centerInside, height, intersection, type Line } from '../geometry.ts';
import type { Ruling } from '../io/rulings.ts';
import type { RegionType, Schedule } from '../model.ts';
import type { RegionDraft } from './region-draft.ts';
import { headsRevisions } from './revisions-and-stamps.ts';
import { type TableRead, tableColumnNames, withoutEmptyRows } from './tables.ts';

/** Row lines of one table have the same ends within this many points. */
const SAME_END = 3;
/** A gap between row lines over this many times the heading's height ends the table. */
const MAX_ROW_GAP_HEADINGS = 8;

const sameExtent = (ruling: Ruling, other: Ruling): boolean =>
  Math.abs(ruling.from - other.from) <= SAME_END && Math.abs(ruling.to - other.to) <= SAME_END;

export const fitScheduleFrames = (drafts: RegionDraft[], rulings: readonly Ruling[]): void => {
  const headings = drafts.flatMap((draft) => (draft.titleBox ? [draft.titleBox] : []));
  const horizontals = rulings.filter((ruling) => ruling.axis === 'h').sort((a, b) => a.at - b.at);
  for (const draft of drafts) {
    const heading = draft.titleBox;
    if (draft.regionType !== 'schedule' || !heading) continue;
    const headingHeight = Math.max(4, height(heading));
    const spansHeading = (ruling: Ruling): boolean =>
      ruling.from <= heading.x0 + 1 && ruling.to >= heading.x1 - 1;
    const first = horizontals.find(
      (ruling) =>
        spansHeading(ruling) && ruling.at >= heading.y1 - 2 && ruling.at <= heading.y1 + 3 * headingHeight,
    );
    if (!first) continue;
    // The next heading under this one in the same columns ends the table.
    const nextHeadingTop = Math.min(
      Number.POSITIVE_INFINITY,
      ...headings
        .filter(
          (other) =>
            other !== heading && other.y0 > heading.y1 && other.x0 < first.to && other.x1 > first.from,
        )
        .map((other) => other.y0),
    );
    let last = first;
    for (const row of horizontals) {
      if (row.at <= last.at || !sameExtent(row, first)) continue;
      if (row.at - last.at > MAX_ROW_GAP_HEADINGS * headingHeight || row.at >= nextHeadingTop - 1) break;
      last = row;
    }
    if (last === first) continue;
    const above = horizontals.filter(
      (ruling) =>
        sameExtent(ruling, first) &&
        ruling.at < heading.y0 + 1 &&
        ruling.at >= heading.y0 - 2 * headingHeight,
    );
    const top = Math.min(heading.y0, ...above.map((ruling) => ruling.at));
    draft.box = boxOf([heading, { x0: first.from, y0: top, x1: first.to, y1: last.at } satisfies Box]);
  }
};

/** Region kinds a ruled table may be the content of. */
const TABLE_KINDS: ReadonlySet<RegionType> = new Set([
  'schedule',
  'sheetIndex',
  'legend',
  'abbreviations',
  'revisionBlock',
  'keynotes',
  'generalNotes',
  'notes',
]);

/** Region kinds whose box is their table's printed frame. */
const FRAMED_BY_TABLE: ReadonlySet<RegionType> = new Set([
  'schedule',
  'sheetIndex',
  'legend',
  'abbreviations',
]);

/** The kind of region a table's title names (`DOOR SCHEDULE`, `SHEET INDEX`, `LEGEND`), schedule by default. */
const kindOfTable = (title: string | null): RegionType => {
  const upper = (title ?? '').toUpperCase();
  if (/\b(?:SHEET|DRAWING)S?\s+(?:INDEX|LIST)\b|\bINDEX\s+OF\s+(?:SHEETS|DRAWINGS)\b/.test(upper))
    return 'sheetIndex';
  if (/\bABBREVIATIONS\b/.test(upper)) return 'abbreviations';
  if (/\bLEGEND\b|\bSYMBOLS\b/.test(upper)) return 'legend';
  if (/\bREVISIONS?\b/.test(upper)) return 'revisionBlock';
  return 'schedule';
};

/** The simple column/record view of a table (`normalizedData.schedule`): header rows joined per column. */
export const scheduleOfTable = (table: TableRead): Schedule => {
  const names = tableColumnNames(table).map((name, column) => name || `${column + 1}`);
  const columns = names.map((name, index) =>
    names.indexOf(name) === index ? name : `${name} (${index + 1})`,
  );
  const rows = table.rows
    .filter((row) => !row.divider)
    .map((row) => {
      const record: Record<string, string> = {};
      row.cells.forEach((cell, index) => {
        const key = columns[index];
        if (key && cell.text) record[key] = cell.text;
      });
      return record;
    })
    .filter((record) => Object.keys(record).length > 0);
  return { columns, rows };
};

/**
 * Gives each ruled table to the region it is the content of (its heading in or just above the frame, or most
 * of the frame inside the region), whose box becomes the printed frame: a schedule's box ends at its frame, not
 * in the neighbouring table. A table no region claims becomes a region of its own, of the kind its title names.
 */
export const attachTables = (
  drafts: RegionDraft[],
  read: readonly TableRead[],
  lines: readonly Line[],
): void => {
  for (const table of read.map(withoutEmptyRows)) {
    const frame = table.titleBox ? boxOf([table.box, table.titleBox]) : table.box;
    const revisions = headsRevisions(table.header);
    // The region whose heading the table prints (in its title row or just above its frame), or one that is
    // mostly the table; a region of notes that holds a small table beside its text keeps its own box.
    const owner = drafts.find(
      (draft) =>
        !draft.table &&
        !draft.drawingArea &&
        TABLE_KINDS.has(draft.regionType) &&
        ((draft.titleBox !== null && centerInside(frame, draft.titleBox)) ||
          intersection(draft.box, table.box) >= 0.6 * area(draft.box) ||
          // A revision block found from its heading row, whose row the table holds.
          (draft.regionType === 'revisionBlock' &&
            draft.titleBox !== null &&
            intersection(draft.titleBox, table.box) > 0 &&
            revisions)),
    );
    const inside = lines.filter((line) => centerInside(frame, line));
    if (owner) {
      owner.table = table;
      // A schedule, index, legend or list is its table: its box is the printed frame. Notes keep the box their
      // text gives (notes boxed line by line read as a grid of sentences), a revision block its own.
      if (FRAMED_BY_TABLE.has(owner.regionType)) {
        owner.box = frame;
        owner.lines = inside;
      }
      if (owner.regionType === 'schedule' || owner.regionType === 'sheetIndex')
        owner.schedule = scheduleOfTable(table);
      continue;
    }
    if (table.rows.length < 2 || (!table.title && !table.header.length)) continue;
    const regionType = revisions ? 'revisionBlock' : kindOfTable(table.title);
    drafts.push({
      regionType,
      label: table.title ?? 'TABLE',
      drawingType: regionType === 'schedule' ? 'schedule' : null,
      box: frame,
      titleBox: table.titleBox,
      lines: inside,
      table,
      ...(regionType === 'schedule' || regionType === 'sheetIndex'
        ? { schedule: scheduleOfTable(table) }
        : {}),
    });
  }
};
