/**
 * Revision blocks (a `REV/NO · DESCRIPTION · DATE` row with the dated rows above or below it) and review stamps
 * and seals (their phrases) of a drawing sheet, found from its text. Boxes in display points.
 */
import { boxOf, centerX, centerY, contains, type Line } from '../geometry.ts';
import type { Ruling } from '../io/rulings.ts';
import type { Revision } from '../model.ts';
import { type RegionDraft, rowsOf } from './region-draft.ts';

const REVISION_HEADER_RE = /\b(?:REV(?:ISION)?S?\.?|NO\.?|#|MARK)\b/i;

/**
 * Whether a table's header rows head a revision block: one heading names the revision's number (REV, NO., #,
 * MARK), one its description, one its date (`REV: | ISSUED FOR / DESCRIPTION: | BY: | DATE:`).
 */
export const headsRevisions = (header: readonly (readonly string[])[]): boolean =>
  header.some(
    (row) =>
      row.some((cell) => REVISION_HEADER_RE.test(cell) && !/\b(?:DESCRIPTION|DATE)\b/i.test(cell)) &&
      row.some((cell) => /\bDESCRIPTION\b/i.test(cell)) &&
      row.some((cell) => /\bDATE\b/i.test(cell)),
  );

/** Lines of one header row farther apart than this many text heights belong to different things. */
const HEADER_PIECE_GAP = 25;

/**
 * The header row of a revision table: the line with DESCRIPTION and its neighbours on the row, left and right,
 * while they follow each other closely (a row across the sheet also holds drawing text at the same height).
 */
const headerPieces = (row: readonly Line[]): Line[] => {
  const at = row.findIndex((line) => /\bDESCRIPTION\b/i.test(line.text));
  if (at < 0) return [...row];
  const closeAt = (leftIndex: number): boolean => {
    const left = row[leftIndex];
    const right = row[leftIndex + 1];
    return !!left && !!right && right.x0 - left.x1 < HEADER_PIECE_GAP * Math.max(left.size, right.size);
  };
  let first = at;
  let last = at;
  while (first > 0 && closeAt(first - 1)) first--;
  while (last + 1 < row.length && closeAt(last)) last++;
  return row.slice(first, last + 1);
};

/** Revision tables: a row with a number column, DESCRIPTION and DATE; rows with a date next to it. */
export const findRevisionBlocks = (lines: readonly Line[]): RegionDraft[] => {
  const out: RegionDraft[] = [];
  const rows = rowsOf(lines.filter((line) => line.dir === 0));
  rows.forEach((fullRow, rowIndex) => {
    const row = headerPieces(fullRow);
    const text = row.map((line) => line.text).join(' | ');
    if (!/\bDESCRIPTION\b/i.test(text) || !/\bDATE\b/i.test(text) || !REVISION_HEADER_RE.test(text)) return;
    const header = boxOf(row);
    const size = Math.max(...row.map((line) => line.size));
    const members: Line[][] = [];
    // Rows above or below the header with a date-like cell, within the header's horizontal extent.
    for (const dirStep of [-1, 1]) {
      let lastEdge = dirStep < 0 ? header.y0 : header.y1;
      for (let j = rowIndex + dirStep; j >= 0 && j < rows.length; j += dirStep) {
        const rowLines = (rows[j] ?? []).filter(
          (line) => line.x0 >= header.x0 - 2 * size && line.x1 <= header.x1 + 6 * size,
        );
        if (!rowLines.length) continue;
        const rowBox = boxOf(rowLines);
        const gap = dirStep < 0 ? lastEdge - rowBox.y1 : rowBox.y0 - lastEdge;
        if (gap > 3 * size) break;
        const rowText = rowLines.map((line) => line.text).join(' ');
        if (!/\d{1,2}[/.-]\d{1,2}[/.-]\d{2,4}/.test(rowText)) break;
        members.push(rowLines);
        lastEdge = dirStep < 0 ? rowBox.y0 : rowBox.y1;
      }
    }
    const revisions: Revision[] = members.map((memberRow) => {
      const cells = memberRow.map((line) => line.text.trim());
      const date = cells.find((cell) => /\d{1,2}[/.-]\d{1,2}[/.-]\d{2,4}/.test(cell)) ?? null;
      const mark = cells[0] ?? '';
      const description = cells.filter((cell, index) => index > 0 && cell !== date).join(' ') || null;
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

export const findStamps = (lines: readonly Line[]): RegionDraft[] => {
  const hits = lines.filter((line) => STAMP_RE.test(line.text));
  if (!hits.length) return [];
  // Group hits that are close together into one stamp each.
  const groups: Line[][] = [];
  for (const hit of hits) {
    const group = groups.find((grp) => {
      const groupBox = boxOf(grp);
      return (
        Math.abs(centerX(groupBox) - centerX(hit)) < 250 && Math.abs(centerY(groupBox) - centerY(hit)) < 250
      );
    });
    if (group) group.push(hit);
    else groups.push([hit]);
  }
  return groups.map((group) => {
    const core = boxOf(group);
    const size = Math.max(...group.map((line) => line.size));
    const around = lines.filter(
      (line) =>
        line.x0 >= core.x0 - 8 * size &&
        line.x1 <= core.x1 + 8 * size &&
        line.y0 >= core.y0 - 6 * size &&
        line.y1 <= core.y1 + 6 * size,
    );
    return {
      regionType: 'stamp' as const,
      label: (group[0]?.text ?? '').trim(),
      drawingType: null,
      box: boxOf(around),
      titleBox: null,
      lines: around,
    };
  });
};

/**
 * A revision table drawn as a ruled frame takes the frame's box, empty rows included: the nearest vertical
 * rulings left and right of its text that both span the text, over their common extent. A frame more than
 * four times the text's height plus MAX_EMPTY_ROWS_HEIGHT (a whole title strip) is not the table's.
 */
export const fitRevisionFrames = (drafts: RegionDraft[], rulings: readonly Ruling[]): void => {
  for (const draft of drafts) {
    if (draft.regionType !== 'revisionBlock') continue;
    const text = draft.box;
    const spanning = rulings.filter(
      (ruling) => ruling.axis === 'v' && ruling.from <= text.y0 + 1 && ruling.to >= text.y1 - 1,
    );
    const left = spanning.filter((ruling) => ruling.at <= text.x0 + 1).sort((a, b) => b.at - a.at)[0];
    const right = spanning.filter((ruling) => ruling.at >= text.x1 - 1).sort((a, b) => a.at - b.at)[0];
    if (!left || !right) continue;
    const frame = {
      x0: left.at,
      y0: Math.max(left.from, right.from),
      x1: right.at,
      y1: Math.min(left.to, right.to),
    };
    const textHeight = text.y1 - text.y0;
    if (frame.y1 - frame.y0 > 4 * textHeight + MAX_EMPTY_ROWS_HEIGHT || !contains(frame, text)) continue;
    draft.box = frame;
  }
};

/** Height of empty ruled rows a revision frame may hold beyond its text (ten rows of 15 pt). */
const MAX_EMPTY_ROWS_HEIGHT = 150;
