import { createCanvas } from '@napi-rs/canvas';
import { PDFDocument } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { extractDocument } from '../../../functions/engine/index.ts';
import { defined } from '../../defined.ts';
import { ARCH_D, addSheet } from './fixtures.ts';

const HEADER = ['MARK', 'FIXTURE', 'MOUNTING', 'LAMPS'];
const ROWS = [
  ['L1', 'RECESSED TROFFER', 'CEILING', '3'],
  ['L2', 'WALL SCONCE', 'WALL', '1'],
  ['L3', 'PENDANT', 'CEILING', '2'],
  ['L4', 'EXIT SIGN', 'WALL', '1'],
  ['L5', 'STRIP LIGHT', 'SURFACE', '2'],
];
const COLUMNS = [60, 200, 130, 80];
const ROW_HEIGHT = 24;
/** White around the grid, as a scan or a pasted picture has. */
const MARGIN = 8;

/** A ruled table as a picture (a schedule scanned or pasted from another program): grid and lettering are pixels. */
const tablePicture = (dpi: number): { png: Buffer; width: number; height: number } => {
  const scale = dpi / 72;
  const gridWidth = COLUMNS.reduce((sum, column) => sum + column, 0);
  const gridHeight = (ROWS.length + 1) * ROW_HEIGHT;
  const width = gridWidth + 2 * MARGIN;
  const height = gridHeight + 2 * MARGIN;
  const canvas = createCanvas(Math.round(width * scale), Math.round(height * scale));
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = '#ffffff';
  ctx.fillRect(0, 0, canvas.width, canvas.height);
  ctx.translate(MARGIN * scale, MARGIN * scale);
  ctx.strokeStyle = '#000000';
  ctx.lineWidth = 1.2 * scale;
  ctx.fillStyle = '#000000';
  ctx.font = `bold ${Math.round(10 * scale)}px sans-serif`;
  [HEADER, ...ROWS].forEach((row, index) => {
    let x = 0;
    row.forEach((text, column) => {
      ctx.fillText(text, (x + 5) * scale, (index * ROW_HEIGHT + 16) * scale);
      x += COLUMNS[column] ?? 0;
    });
  });
  for (let row = 0; row <= ROWS.length + 1; row++) {
    ctx.beginPath();
    ctx.moveTo(0, row * ROW_HEIGHT * scale);
    ctx.lineTo(gridWidth * scale, row * ROW_HEIGHT * scale);
    ctx.stroke();
  }
  let x = 0;
  for (const column of [0, ...COLUMNS]) {
    x += column;
    ctx.beginPath();
    ctx.moveTo(x * scale, 0);
    ctx.lineTo(x * scale, gridHeight * scale);
    ctx.stroke();
  }
  return { png: canvas.toBuffer('image/png'), width, height };
};

describe('a table on a sheet read from its text layer, with nothing of it in the text layer', () => {
  it('reads a schedule pasted as a picture: its grid from the pixels, its cells by OCR', async () => {
    // Prepare: a sheet whose title block is text; a lighting fixture schedule placed as a 200 dpi picture.
    const doc = await PDFDocument.create();
    const page = await addSheet(doc, { number: 'E-601', title: 'LIGHTING SCHEDULES' });
    const picture = tablePicture(200);
    const image = await doc.embedPng(picture.png);
    page.drawImage(image, {
      x: 400,
      y: ARCH_D[1] - 400 - picture.height,
      width: picture.width,
      height: picture.height,
    });
    const bytes = await doc.save();

    // Act
    const withoutOcr = await extractDocument(bytes, { ocr: false });
    const result = await extractDocument(bytes, { ocr: 'auto' });

    // Assess: the sheet is read from its text layer; the picture's table is a region with its rows.
    expect(withoutOcr.sheets[0]?.regions.some((region) => region.table)).toBe(false);
    const sheet = defined(result.sheets[0], 'a sheet');
    expect(sheet.sheetNumber).toBe('E-601');
    const table = defined(sheet.regions.find((region) => region.table)?.table, 'a table region');
    expect(table.header).toEqual([HEADER]);
    expect(table.rows.map((row) => row.cells.map((cell) => cell.text))).toEqual(ROWS);
    // The grid's place within its lines' width and the 100 dpi render its rulings are found in.
    expect(Math.abs(table.displayBox.left - (400 + MARGIN))).toBeLessThan(2);
    expect(Math.abs(table.displayBox.top - (400 + MARGIN))).toBeLessThan(2);
  });
});
