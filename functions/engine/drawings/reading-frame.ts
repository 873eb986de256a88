/**
 * A sheet read turned. Drawing sheets are drawn landscape, with the title block along the right edge or across
 * the bottom (the US National CAD Standard's sheet layout); a landscape sheet placed on a portrait page is turned
 * by a quarter, so its lettering runs up or down the page. Such a sheet is read in the frame where it stands
 * upright (the displayed page turned clockwise by `turn`), and what is read there is mapped back to the
 * displayed page, where every box of a result lives.
 *
 * Pure geometry: the I/O layer renders and reads paths in the turned frame from the turned geometry
 * (`turnGeometry`), and the reading modules never know they read a turned sheet.
 */
import {
  applyMatrix,
  type Box,
  fromDisplayBox,
  type Matrix,
  multiply,
  type TextDirection,
  toDisplayBox,
  type Word,
} from '../geometry.ts';
import type { Ruling } from '../io/rulings.ts';
import type { DisplayBox } from '../model.ts';
import type { SheetPageResult } from '../pages/sheets.ts';

/** Clockwise quarter turns of the reading frame against the displayed page. */
export type Turn = 0 | 90 | 180 | 270;

/** The displayed page's size: what `turn` maps from. */
export interface DisplaySize {
  width: number;
  height: number;
}

/** The page geometry the I/O layer reads and renders with (display space: points, top-left origin, y down). */
export interface FrameGeometry extends DisplaySize {
  rotation: number;
  transform: number[];
}

const quarter = (turn: Turn): boolean => turn === 90 || turn === 270;

/** The size of the page in the frame turned by `turn`. */
export const turnedSize = (size: DisplaySize, turn: Turn): DisplaySize =>
  quarter(turn) ? { width: size.height, height: size.width } : { width: size.width, height: size.height };

/** Display space -> the frame turned clockwise by `turn` (y down: a clockwise turn takes (x, y) to (H - y, x)). */
export const turnMatrix = (size: DisplaySize, turn: Turn): Matrix => {
  const { width, height } = size;
  if (turn === 90) return [0, 1, -1, 0, height, 0];
  if (turn === 180) return [-1, 0, 0, -1, width, height];
  if (turn === 270) return [0, -1, 1, 0, 0, width];
  return [1, 0, 0, 1, 0, 0];
};

/** The geometry of the page seen in the frame turned by `turn`: user space maps to the turned frame. */
export const turnGeometry = <G extends FrameGeometry>(geometry: G, turn: Turn): G => ({
  ...geometry,
  ...turnedSize(geometry, turn),
  rotation: (geometry.rotation + turn) % 360,
  transform: multiply(turnMatrix(geometry, turn), geometry.transform as Matrix),
});

const mapBox = <B extends Box>(box: B, matrix: Matrix): B => {
  const [ax, ay] = applyMatrix(matrix, box.x0, box.y0);
  const [bx, by] = applyMatrix(matrix, box.x1, box.y1);
  return { ...box, x0: Math.min(ax, bx), y0: Math.min(ay, by), x1: Math.max(ax, bx), y1: Math.max(ay, by) };
};

/** The inverse of a quarter-turn matrix (its linear part is orthogonal: the inverse is the transpose). */
const invert = (matrix: Matrix): Matrix => {
  const [a, b, c, d, e, f] = matrix;
  return [a, c, b, d, -(a * e + b * f), -(c * e + d * f)];
};

/** A box of the displayed page in the frame turned by `turn`. */
export const boxToTurned = <B extends Box>(box: B, size: DisplaySize, turn: Turn): B =>
  turn === 0 ? box : mapBox(box, turnMatrix(size, turn));

/** A box of the frame turned by `turn` on the displayed page (`size` is the displayed page's). */
export const boxToDisplay = <B extends Box>(box: B, size: DisplaySize, turn: Turn): B =>
  turn === 0 ? box : mapBox(box, invert(turnMatrix(size, turn)));

const turnDirection = (dir: TextDirection, by: number): TextDirection =>
  ((((dir + by) % 360) + 360) % 360) as TextDirection;

/** A word of the displayed page in the turned frame: lettering that ran up or down the page reads across. */
export const wordToTurned = (word: Word, size: DisplaySize, turn: Turn): Word =>
  turn === 0 ? word : { ...boxToTurned(word, size, turn), dir: turnDirection(word.dir, turn) };

export const wordToDisplay = (word: Word, size: DisplaySize, turn: Turn): Word =>
  turn === 0 ? word : { ...boxToDisplay(word, size, turn), dir: turnDirection(word.dir, -turn) };

/** A ruling of the displayed page in the turned frame (a quarter turn swaps its axis). */
export const rulingToTurned = (ruling: Ruling, size: DisplaySize, turn: Turn): Ruling => {
  if (turn === 0) return ruling;
  const matrix = turnMatrix(size, turn);
  const [ax, ay] =
    ruling.axis === 'h'
      ? applyMatrix(matrix, ruling.from, ruling.at)
      : applyMatrix(matrix, ruling.at, ruling.from);
  const [bx, by] =
    ruling.axis === 'h'
      ? applyMatrix(matrix, ruling.to, ruling.at)
      : applyMatrix(matrix, ruling.at, ruling.to);
  return ay === by
    ? { axis: 'h', at: ay, from: Math.min(ax, bx), to: Math.max(ax, bx) }
    : { axis: 'v', at: ax, from: Math.min(ay, by), to: Math.max(ay, by) };
};

/**
 * A sheet read in the frame turned by `turn`, on the displayed page: its size, its title block, number
 * candidates, title lines, regions and their references (every box a sheet result holds).
 */
export const sheetToDisplay = (sheet: SheetPageResult, size: DisplaySize, turn: Turn): SheetPageResult => {
  if (turn === 0) return sheet;
  // A candidate's box is the word it was read from: its direction turns back too.
  const box = <B extends Box & { dir?: TextDirection }>(value: B): B => {
    const mapped = boxToDisplay(value, size, turn);
    return value.dir === undefined ? mapped : { ...mapped, dir: turnDirection(value.dir, -turn) };
  };
  const displayBox = (value: DisplayBox): DisplayBox =>
    toDisplayBox(boxToDisplay(fromDisplayBox(value), size, turn));
  return {
    ...sheet,
    width: size.width,
    height: size.height,
    turn,
    numberCandidates: sheet.numberCandidates.map((candidate) => ({ ...candidate, box: box(candidate.box) })),
    titleLines: sheet.titleLines.map((lines) => lines.map((line) => ({ ...line, box: box(line.box) }))),
    titleBlock: sheet.titleBlock ? box(sheet.titleBlock) : null,
    regions: sheet.regions.map((region) => ({
      ...region,
      displayBox: displayBox(region.displayBox),
      titleDisplayBox: region.titleDisplayBox ? displayBox(region.titleDisplayBox) : null,
      ...(region.table
        ? {
            table: {
              ...region.table,
              displayBox: displayBox(region.table.displayBox),
              rows: region.table.rows.map((row) => ({
                ...row,
                displayBox: displayBox(row.displayBox),
                cells: row.cells.map((cell) => ({ ...cell, displayBox: displayBox(cell.displayBox) })),
              })),
            },
          }
        : {}),
      normalizedData: {
        ...region.normalizedData,
        sheetReferences: region.normalizedData.sheetReferences.map((reference) => ({
          ...reference,
          displayBox: reference.displayBox ? displayBox(reference.displayBox) : null,
        })),
      },
    })),
  };
};
