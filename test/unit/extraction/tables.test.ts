import { describe, expect, it } from 'vitest';
import type { RegionDraft } from '../../../functions/engine/drawings/region-draft.ts';
import { headsRevisions } from '../../../functions/engine/drawings/revisions-and-stamps.ts';
import { attachTables } from '../../../functions/engine/drawings/schedule-frames.ts';
import { cellText, readTables, unreadGrids } from '../../../functions/engine/drawings/tables.ts';
import type { Box, Word } from '../../../functions/engine/geometry.ts';
import type { Ruling } from '../../../functions/engine/io/rulings.ts';
import { wordAt } from './fixtures.ts';

const PAGE = { width: 2592, height: 1728 };

/** The four sides of each printed cell (a merged cell draws no border inside it), as a drawing prints them. */
const cellBorders = (cells: readonly Box[]): Ruling[] =>
  cells.flatMap((cell) => [
    { axis: 'h', at: cell.y0, from: cell.x0, to: cell.x1 },
    { axis: 'h', at: cell.y1, from: cell.x0, to: cell.x1 },
    { axis: 'v', at: cell.x0, from: cell.y0, to: cell.y1 },
    { axis: 'v', at: cell.x1, from: cell.y0, to: cell.y1 },
  ]);

/** A word centred vertically in the band [top, bottom], starting at x. */
const textIn = (text: string, x: number, top: number, bottom: number, size = 8): Word[] =>
  text.split(' ').reduce<{ words: Word[]; at: number }>(
    (acc, part) => {
      const word = wordAt(part, acc.at, (top + bottom) / 2 - size / 2, size);
      return { words: [...acc.words, word], at: word.x1 + size * 0.4 };
    },
    { words: [], at: x },
  ).words;

/** One row's cells: `texts[i]` starting at `xs[i]`, in the band [top, bottom]. */
const rowIn = (xs: readonly number[], texts: readonly string[], top: number, bottom: number): Word[] =>
  texts.flatMap((text, column) => textIn(text, xs[column] ?? 0, top, bottom));

describe('tables read from ruled grids', () => {
  it('reads a title row, a two-level header with merged cells, body rows and a section divider', () => {
    // Prepare: a door schedule. Columns at 100/160/260/330/400/480; DOOR spans WIDTH and HEIGHT; MARK, ROOM and
    // REMARKS span both header rows; EXTERIOR is a divider over every column.
    const xs = [100, 160, 260, 330, 400, 480];
    const cell = (c0: number, c1: number, y0: number, y1: number): Box => ({
      x0: xs[c0] ?? 0,
      x1: xs[c1] ?? 0,
      y0,
      y1,
    });
    const cells = [
      cell(0, 5, 100, 120),
      cell(0, 1, 120, 150),
      cell(1, 2, 120, 150),
      cell(2, 4, 120, 135),
      cell(2, 3, 135, 150),
      cell(3, 4, 135, 150),
      cell(4, 5, 120, 150),
      ...[0, 1, 2, 3, 4].map((c) => cell(c, c + 1, 150, 165)),
      cell(0, 5, 165, 180),
      ...[0, 1, 2, 3, 4].map((c) => cell(c, c + 1, 180, 195)),
    ];
    const words = [
      ...textIn('DOOR SCHEDULE', 250, 100, 120, 10),
      ...textIn('MARK', 104, 120, 150),
      ...textIn('ROOM', 164, 120, 150),
      ...textIn('DOOR', 264, 120, 135),
      ...textIn('WIDTH', 264, 135, 150),
      ...textIn('HEIGHT', 334, 135, 150),
      ...textIn('REMARKS', 404, 120, 150),
      ...textIn('101', 104, 150, 165),
      ...textIn('OFFICE', 164, 150, 165),
      ...textIn(`3'-0"`, 264, 150, 165),
      ...textIn(`7'-0"`, 334, 150, 165),
      ...textIn('EXTERIOR', 104, 165, 180),
      ...textIn('102', 104, 180, 195),
      ...textIn('STORAGE ROOM', 164, 180, 195),
      ...textIn(`6'-0"`, 264, 180, 195),
      ...textIn(`7'-0"`, 334, 180, 195),
      ...textIn('PAIR', 404, 180, 195),
    ];

    // Act
    const tables = readTables(words, cellBorders(cells), PAGE);

    // Assess
    expect(tables).toHaveLength(1);
    const table = tables[0];
    expect(table?.title).toBe('DOOR SCHEDULE');
    expect(table?.box).toEqual({ x0: 100, y0: 100, x1: 480, y1: 195 });
    expect(table?.header).toEqual([
      ['MARK', 'ROOM', 'DOOR', 'DOOR', 'REMARKS'],
      ['', '', 'WIDTH', 'HEIGHT', ''],
    ]);
    expect(table?.rows.map((row) => row.cells.map((c) => c.text))).toEqual([
      ['101', 'OFFICE', `3'-0"`, `7'-0"`, ''],
      ['EXTERIOR', '', '', '', ''],
      ['102', 'STORAGE ROOM', `6'-0"`, `7'-0"`, 'PAIR'],
    ]);
    expect(table?.rows.map((row) => row.divider)).toEqual([false, true, false]);
    expect(table?.rows[2]?.box).toEqual({ x0: 100, y0: 180, x1: 480, y1: 195 });
    expect(table?.rows[2]?.cells[1]?.box).toEqual({ x0: 160, y0: 180, x1: 260, y1: 195 });
  });

  it('splits a grid ruled by columns only at its text lines, joins a wrapped cell, and takes the title above', () => {
    // Prepare: a fixture schedule framed and ruled by columns, one line under the header; P-2's remarks wrap.
    const frame = { x0: 600, y0: 300, x1: 900, y1: 400 };
    const rulings: Ruling[] = [
      { axis: 'h', at: 300, from: 600, to: 900 },
      { axis: 'h', at: 318, from: 600, to: 900 },
      { axis: 'h', at: 400, from: 600, to: 900 },
      ...[600, 660, 780, 900].map((x): Ruling => ({ axis: 'v', at: x, from: 300, to: 400 })),
    ];
    const words = [
      ...textIn('PLUMBING FIXTURE SCHEDULE', 600, 282, 294, 10),
      ...textIn('MARK', 604, 300, 318),
      ...textIn('FIXTURE', 664, 300, 318),
      ...textIn('REMARKS', 784, 300, 318),
      ...textIn('P-1', 604, 320, 332),
      ...textIn('LAVATORY', 664, 320, 332),
      ...textIn('WALL HUNG', 784, 320, 332),
      ...textIn('P-2', 604, 336, 348),
      ...textIn('WATER CLOSET', 664, 336, 348),
      ...textIn('FLUSH VALVE,', 784, 336, 348),
      ...textIn('ADA HEIGHT', 784, 350, 362),
      ...textIn('P-3', 604, 366, 378),
      ...textIn('MOP SINK', 664, 366, 378),
    ];

    // Act
    const tables = readTables(words, rulings, PAGE);

    // Assess
    expect(tables).toHaveLength(1);
    expect(tables[0]?.box).toEqual(frame);
    expect(tables[0]?.title).toBe('PLUMBING FIXTURE SCHEDULE');
    expect(tables[0]?.header).toEqual([['MARK', 'FIXTURE', 'REMARKS']]);
    expect(tables[0]?.rows.map((row) => row.cells.map((c) => c.text))).toEqual([
      ['P-1', 'LAVATORY', 'WALL HUNG'],
      ['P-2', 'WATER CLOSET', 'FLUSH VALVE, ADA HEIGHT'],
      ['P-3', 'MOP SINK', ''],
    ]);
  });

  it('takes no table from linework whose cells are far taller than its text (a plan), nor inside an excluded box', () => {
    // Prepare: rooms 200 pt square, each with one name; and a small grid inside a title block.
    const rooms = [0, 1, 2].flatMap((i) =>
      [0, 1].map(
        (j): Box => ({ x0: 100 + i * 200, y0: 600 + j * 200, x1: 300 + i * 200, y1: 800 + j * 200 }),
      ),
    );
    const names = rooms.flatMap((room, index) =>
      textIn(`ROOM ${101 + index}`, room.x0 + 80, room.y0 + 90, room.y0 + 110),
    );
    const block = { x0: 2300, y0: 1400, x1: 2500, y1: 1700 };
    const fields = [0, 1, 2, 3].map(
      (i): Box => ({ x0: 2300, y0: 1400 + i * 20, x1: 2500, y1: 1420 + i * 20 }),
    );
    const fieldWords = fields.flatMap((field, index) =>
      textIn(`FIELD ${index} VALUE`, 2304, field.y0, field.y1),
    );

    // Act
    const tables = readTables(
      [...names, ...fieldWords],
      [...cellBorders(rooms), ...cellBorders(fields)],
      PAGE,
      [block],
    );

    // Assess
    expect(tables).toEqual([]);
  });

  it('reads two index blocks ruled on shared row lines as two tables, each with its heading row', () => {
    // Prepare: rows at 100..180 every 16 pt across 100-700; columns 100/160/380 (left) and 420/480/700 (right);
    // the column 380-420 between them is empty. Headings `DWG NO. | TITLE`; `L/2`-like digits in a heading do
    // not make it a body row.
    const ys = [100, 116, 132, 148, 164, 180];
    const rulings: Ruling[] = [
      ...ys.map((y): Ruling => ({ axis: 'h', at: y, from: 100, to: 700 })),
      ...[100, 160, 380, 420, 480, 700].map((x): Ruling => ({ axis: 'v', at: x, from: 100, to: 180 })),
    ];
    const row = (index: number, left: [string, string], right: [string, string]): Word[] => [
      ...textIn(left[0], 104, ys[index] ?? 0, ys[index + 1] ?? 0),
      ...textIn(left[1], 164, ys[index] ?? 0, ys[index + 1] ?? 0),
      ...textIn(right[0], 424, ys[index] ?? 0, ys[index + 1] ?? 0),
      ...textIn(right[1], 484, ys[index] ?? 0, ys[index + 1] ?? 0),
    ];
    const words = [
      ...row(0, ['DWG NO.', 'TITLE (SHEET 1/2)'], ['DWG NO.', 'TITLE (SHEET 2/2)']),
      ...row(1, ['G-1', 'COVER 1'], ['S-1', 'SEWER PLAN 1']),
      ...row(2, ['G-2', 'INDEX 2'], ['S-2', 'SEWER PLAN 2']),
      ...row(3, ['C-1', 'GRADING 3'], ['S-3', 'SEWER PROFILE 3']),
      ...row(4, ['C-2', 'DRAINAGE 4'], ['S-4', 'DETAILS 4']),
    ];

    // Act
    const tables = readTables(words, rulings, PAGE).sort((a, b) => a.box.x0 - b.box.x0);

    // Assess
    expect(tables.map((table) => table.box)).toEqual([
      { x0: 100, y0: 100, x1: 380, y1: 180 },
      { x0: 420, y0: 100, x1: 700, y1: 180 },
    ]);
    expect(tables.map((table) => table.header)).toEqual([
      [['DWG NO.', 'TITLE (SHEET 1/2)']],
      [['DWG NO.', 'TITLE (SHEET 2/2)']],
    ]);
    expect(tables[1]?.rows.map((r) => r.cells.map((c) => c.text))).toEqual([
      ['S-1', 'SEWER PLAN 1'],
      ['S-2', 'SEWER PLAN 2'],
      ['S-3', 'SEWER PROFILE 3'],
      ['S-4', 'DETAILS 4'],
    ]);
  });

  it('takes no table from notes boxed line by line, whose full-width rows outnumber its rows of cells', () => {
    // Prepare: six note lines each ruled over the whole width (a notes frame), over a two-column grid of two
    // rows of cells at the bottom (a detail's callout boxes).
    const ys = [100, 116, 132, 148, 164, 180, 196, 212, 228];
    const rulings: Ruling[] = [
      ...ys.map((y): Ruling => ({ axis: 'h', at: y, from: 100, to: 700 })),
      { axis: 'v', at: 100, from: 100, to: 228 },
      { axis: 'v', at: 700, from: 100, to: 228 },
      { axis: 'v', at: 400, from: 196, to: 228 },
    ];
    const notes = [
      'GENERAL NOTES:',
      'TANK SHALL BE DESIGNED',
      'PER AWWA D100',
      'WIND LOAD: 110 MPH',
      'SEISMIC',
      'PAINT',
    ];
    const words = [
      ...notes.flatMap((note, index) => textIn(note, 104, ys[index] ?? 0, ys[index + 1] ?? 0)),
      ...textIn('STEEL PLATE', 104, 196, 212),
      ...textIn('ASTM A36', 404, 196, 212),
      ...textIn('RODS', 104, 212, 228),
      ...textIn('ASTM A706', 404, 212, 228),
    ];

    // Act
    const tables = readTables(words, rulings, PAGE);

    // Assess
    expect(tables).toEqual([]);
  });

  it('finds a ruled grid with nothing inside to read, but not a table with text, a plan, or a title block', () => {
    // Prepare: three grids of 3 columns. A: 6 rows of 16 pt, no words (lettering drawn as outlines). B: the same
    // with its words (a table read from its text layer). C: 6 rows of 150 pt (a plan's rooms). D: like A, in
    // the excluded title block.
    const grid = (x: number, y: number, rowHeight: number): Ruling[] => [
      ...[0, 1, 2, 3, 4, 5, 6].map(
        (row): Ruling => ({
          axis: 'h',
          at: y + row * rowHeight,
          from: x,
          to: x + 300,
        }),
      ),
      ...[0, 100, 200, 300].map((dx): Ruling => ({ axis: 'v', at: x + dx, from: y, to: y + 6 * rowHeight })),
    ];
    const rulings = [
      ...grid(100, 100, 16),
      ...grid(500, 100, 16),
      ...grid(900, 100, 150),
      ...grid(2250, 1400, 16),
      ...grid(1300, 100, 16),
    ];
    const words = [
      ...[0, 1, 2, 3, 4, 5].flatMap((row) =>
        [0, 1, 2].flatMap((column) =>
          textIn(`R${row}C${column}`, 504 + column * 100, 100 + row * 16, 116 + row * 16),
        ),
      ),
      ...['MARK', 'SIZE', 'TYPE'].flatMap((heading, column) =>
        textIn(heading, 1304 + column * 100, 100, 116),
      ),
    ];

    // Act
    const frames = unreadGrids(words, rulings, PAGE, [{ x0: 2200, y0: 1300, x1: 2560, y1: 1700 }]);

    // Assess
    expect(frames).toEqual([
      { x0: 100, y0: 100, x1: 400, y1: 196 },
      { x0: 1300, y0: 100, x1: 1600, y1: 196 },
    ]);
  });

  it('keeps a heading over three lines whole in a grid that rules each row, its figures small in roomy cells', () => {
    // Prepare: rows 18 pt tall with 6 pt figures (three text heights each); a heading row 36 pt tall whose key
    // cell prints PIPE / SIZE / X on three lines.
    const ys = [100, 136, 154, 172, 190, 208];
    const xs = [100, 140, 180, 220];
    const rulings: Ruling[] = [
      ...ys.map((y): Ruling => ({ axis: 'h', at: y, from: 100, to: 220 })),
      ...xs.map((x): Ruling => ({ axis: 'v', at: x, from: 100, to: 208 })),
    ];
    const body = [
      ['24"', `2'-7"`, `7'-0"`],
      ['20"', `2'-1"`, `6'-0"`],
      ['18"', `1'-11"`, `5'-6"`],
      ['16"', `1'-9"`, `5'-0"`],
    ];
    const words = [
      ...textIn('PIPE', 104, 100, 112, 6),
      ...textIn('SIZE', 104, 112, 124, 6),
      ...textIn('X', 104, 124, 136, 6),
      ...textIn('A', 154, 100, 136, 6),
      ...textIn('B', 194, 100, 136, 6),
      ...body.flatMap((cells, row) =>
        cells.flatMap((text, column) =>
          textIn(text, (xs[column] ?? 0) + 4, ys[row + 1] ?? 0, ys[row + 2] ?? 0, 6),
        ),
      ),
    ];

    // Act
    const tables = readTables(words, rulings, PAGE);

    // Assess
    expect(tables).toHaveLength(1);
    expect(tables[0]?.header).toEqual([['PIPE SIZE X', 'A', 'B']]);
    expect(tables[0]?.rows.map((row) => row.cells.map((cell) => cell.text))).toEqual(body);
  });

  it('finds a blank list of one column, judged on lettering read across it (not on words read turned)', () => {
    // Prepare: a one-column ruled list of six rows (100..400 x 100..196) with only turned words in it (a turned
    // OCR pass reads noise in a scan's cells).
    const ys = [100, 116, 132, 148, 164, 180, 196];
    const rulings: Ruling[] = [
      ...ys.map((y): Ruling => ({ axis: 'h', at: y, from: 100, to: 400 })),
      { axis: 'v', at: 100, from: 100, to: 196 },
      { axis: 'v', at: 400, from: 100, to: 196 },
    ];
    const turned = ys.slice(0, -1).map((y) => ({ ...wordAt('III', 200, y + 4, 8), dir: 90 as const }));

    // Act
    const frames = unreadGrids(turned, rulings, PAGE);

    // Assess
    expect(frames).toEqual([{ x0: 100, y0: 100, x1: 400, y1: 196 }]);
  });

  it('reads a revision block drawn in a title strip: parted from the strip’s other panels at their dividers, closed by the strip’s edges, its headings in its last row', () => {
    // Prepare: a title strip along the sheet's foot (edges drawn across the whole sheet, so they are the sheet's
    // frame lines), cut by dividers at x 400 and 900 into a revision block, a disclaimer panel and a title panel.
    // The block's row line at y 1620 runs on into the disclaimer panel (the panel's own line); three blank rows
    // wait at its top; its headings (REV | DESCRIPTION | BY | DATE) are printed in its last row.
    const top = 1560;
    const bottom = 1680;
    const rows = [1575, 1590, 1605, 1620, 1635, 1650, 1665];
    const columns = [60, 90, 300, 340, 400];
    const rulings: Ruling[] = [
      { axis: 'h', at: top, from: 30, to: 2562 },
      { axis: 'h', at: bottom, from: 30, to: 2562 },
      ...rows.map((at): Ruling => ({ axis: 'h', at, from: 60, to: at === 1620 ? 900 : 400 })),
      ...columns.map((at): Ruling => ({ axis: 'v', at, from: top, to: bottom })),
      { axis: 'v', at: 900, from: top, to: bottom },
      { axis: 'h', at: 1600, from: 900, to: 2562 },
      { axis: 'v', at: 1500, from: top, to: 1600 },
      { axis: 'v', at: 2000, from: 1600, to: bottom },
    ];
    const cells = [64, 94, 304, 344];
    const words = [
      ...rowIn(cells, ['C', 'ISSUED FOR CONSTRUCTION', 'JMW', '24-06-24'], 1605, 1620),
      ...rowIn(cells, ['B', 'ISSUED FOR REVIEW', 'JMW', '03-04-24'], 1620, 1635),
      ...rowIn(cells, ['A', 'ISSUED FOR INFORMATION', 'JMW', '06-03-24'], 1635, 1650),
      ...rowIn(cells, ['REV', 'DESCRIPTION', 'BY', 'DATE'], 1665, 1680),
      ...textIn('THESE DRAWINGS MUST BE APPROVED BEFORE CONSTRUCTION', 420, 1590, 1605),
      ...textIn('GROUND FLOOR PLAN', 1000, 1570, 1590, 14),
      ...textIn('S-101', 2100, 1620, 1660, 24),
    ];

    // Act
    const tables = readTables(words, rulings, PAGE);

    // Assess: one table, the block's frame, the headings from its last row, the records top to bottom.
    expect(tables.map((table) => table.box)).toEqual([{ x0: 60, y0: top, x1: 400, y1: bottom }]);
    const [table] = tables;
    expect(table?.header).toEqual([['REV', 'DESCRIPTION', 'BY', 'DATE']]);
    expect(
      table?.rows
        .filter((row) => row.cells.some((cell) => cell.text))
        .map((row) => row.cells.map((cell) => cell.text)),
    ).toEqual([
      ['C', 'ISSUED FOR CONSTRUCTION', 'JMW', '24-06-24'],
      ['B', 'ISSUED FOR REVIEW', 'JMW', '03-04-24'],
      ['A', 'ISSUED FOR INFORMATION', 'JMW', '06-03-24'],
    ]);
  });

  it('keeps the headings of a table whose first row holds them, even when its last row reads as words', () => {
    // Prepare: a schedule headed at its top (MARK | SIZE), its last record without digits.
    const ys = [100, 115, 130, 145, 160];
    const rulings: Ruling[] = [
      ...ys.map((at): Ruling => ({ axis: 'h', at, from: 100, to: 300 })),
      ...[100, 180, 300].map((at): Ruling => ({ axis: 'v', at, from: 100, to: 160 })),
    ];
    const words = [
      ['MARK', 'SIZE'],
      ['D1', '36 X 84'],
      ['D2', '30 X 84'],
      ['PAIR', 'MATCH EXISTING'],
    ].flatMap((texts, row) => rowIn([104, 184], texts, ys[row] ?? 0, ys[row + 1] ?? 0));

    // Act
    const [table] = readTables(words, rulings, PAGE);

    // Assess
    expect(table?.header).toEqual([['MARK', 'SIZE']]);
    expect(table?.rows.map((row) => row.cells[0]?.text)).toEqual(['D1', 'D2', 'PAIR']);
  });

  it.each([
    [[['REV:', 'ISSUED FOR / DESCRIPTION:', 'BY:', 'DATE:']], true],
    [[['NO.', 'DESCRIPTION', 'DATE', 'APPR.']], true],
    [[['MARK', 'DESCRIPTION', 'ISSUE DATE']], true],
    [
      [
        ['DRAWN BY', 'DATE'],
        ['CHECKED BY', 'DESCRIPTION'],
      ],
      false,
    ],
    [[['MARK', 'SIZE', 'TYPE', 'REMARKS']], false],
    [[['', 'DESCRIPTION', 'DATE']], false],
  ] as const)('tells revision block headings (%j: %s)', (header, expected) => {
    expect(headsRevisions(header)).toBe(expected);
  });

  it('gives a revision table to the revision block found from its heading row, or makes it one', () => {
    // Prepare: a ruled revision table (headings in its last row); a revision block found from the text, whose
    // heading line ran on into the panel beside the table (its box wider than the table).
    const rulings: Ruling[] = [
      ...[100, 115, 130, 145].map((at): Ruling => ({ axis: 'h', at, from: 100, to: 400 })),
      ...[100, 130, 330, 400].map((at): Ruling => ({ axis: 'v', at, from: 100, to: 145 })),
    ];
    const words = [
      ...rowIn([104, 134, 334], ['B', 'ISSUED FOR PERMIT', '02/11/24'], 100, 115),
      ...rowIn([104, 134, 334], ['A', 'ISSUED FOR BID', '01/08/24'], 115, 130),
      ...rowIn([104, 134, 334], ['NO.', 'DESCRIPTION', 'DATE'], 130, 145),
    ];
    const tables = readTables(words, rulings, PAGE);
    const found: RegionDraft = {
      regionType: 'revisionBlock',
      label: 'REVISIONS',
      drawingType: null,
      box: { x0: 100, y0: 100, x1: 800, y1: 145 },
      titleBox: { x0: 100, y0: 130, x1: 800, y1: 145 },
      lines: [],
    };
    const withBlock: RegionDraft[] = [found];
    const withoutBlock: RegionDraft[] = [];

    // Act
    attachTables(withBlock, tables, []);
    attachTables(withoutBlock, tables, []);

    // Assess: the found block owns the table (no second region); alone, the table is a revision block.
    expect(tables.map((table) => table.header)).toEqual([[['NO.', 'DESCRIPTION', 'DATE']]]);
    expect(withBlock.map((draft) => [draft.regionType, draft.table?.rows.length])).toEqual([
      ['revisionBlock', 2],
    ]);
    expect(withoutBlock.map((draft) => [draft.regionType, draft.table?.rows.length])).toEqual([
      ['revisionBlock', 2],
    ]);
  });

  it('leaves out of a cell read by OCR what it read from the cell’s borders, not a dash standing as a value', () => {
    // Prepare: a scanned cell's line with a border read as `|` and `_-_` at its ends; a cell holding a dash.
    const ocr = { source: 'ocr' as const };
    const line = [
      wordAt('|', 100, 100, 8, ocr),
      wordAt('Site', 110, 100, 8, ocr),
      wordAt('Acreage:', 140, 100, 8, ocr),
      wordAt('1.693', 190, 100, 8, ocr),
      wordAt('_-_', 230, 100, 8, ocr),
    ];
    const dash = [wordAt('-', 100, 100, 8, ocr)];
    const printed = [wordAt('A|B', 100, 100, 8), wordAt('|', 130, 100, 8)];

    // Act / Assess: text-layer words are kept as printed.
    expect([cellText(line), cellText(dash), cellText(printed)]).toEqual([
      'Site Acreage: 1.693',
      '-',
      'A|B |',
    ]);
  });
});
