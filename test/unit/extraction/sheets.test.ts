import { PDFDocument, type PDFFont, type PDFPage } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { extractDocument, type Region } from '../../../functions/engine/index.ts';
import { defined } from '../../defined.ts';
import { addSheet, drawAt } from './fixtures.ts';

const planExtras = (page: PDFPage, font: PDFFont, bold: PDFFont): void => {
  // View title: bubble number, title, scale.
  drawAt(page, bold, { text: '1', x: 100, top: 1195, size: 24 });
  drawAt(page, bold, { text: 'FIRST FLOOR PLAN', x: 140, top: 1195, size: 16 });
  drawAt(page, font, { text: 'SCALE: 1/8" = 1\'-0"', x: 140, top: 1218, size: 10 });
  // General notes.
  drawAt(page, bold, { text: 'GENERAL NOTES', x: 1700, top: 100, size: 14 });
  drawAt(page, font, { text: '1. VERIFY ALL DIMENSIONS IN FIELD.', x: 1700, top: 125 });
  drawAt(page, font, { text: '2. SEE SECTION 09 29 00 FOR GYPSUM BOARD.', x: 1700, top: 140 });
  drawAt(page, font, { text: '3. REFER TO DETAIL 5/A-501 FOR WALL TYPES.', x: 1700, top: 155 });
  // Keynotes.
  drawAt(page, bold, { text: 'KEYNOTES', x: 1700, top: 300, size: 14 });
  drawAt(page, font, { text: '1 PROVIDE FIRE EXTINGUISHER CABINET.', x: 1700, top: 325 });
  drawAt(page, font, { text: '2 PATCH AND REPAIR EXISTING WALL.', x: 1700, top: 340 });
  // A schedule.
  drawAt(page, bold, { text: 'DOOR SCHEDULE', x: 1700, top: 500, size: 14 });
  for (const [text, x] of [
    ['MARK', 1700],
    ['WIDTH', 1780],
    ['HEIGHT', 1860],
    ['MATERIAL', 1940],
  ] as const) {
    drawAt(page, bold, { text, x, top: 525 });
  }
  const rows = [
    ['101', '3\'-0"', '7\'-0"', 'WOOD'],
    ['102', '3\'-6"', '7\'-0"', 'HOLLOW METAL'],
  ];
  rows.forEach((row, i) => {
    row.forEach((cell, j) => {
      drawAt(page, font, { text: cell, x: 1700 + 80 * j, top: 545 + 20 * i });
    });
  });
  // Revision table above the title block.
  drawAt(page, font, { text: 'REV', x: 2215, top: 1240, size: 8 });
  drawAt(page, font, { text: 'DESCRIPTION', x: 2260, top: 1240, size: 8 });
  drawAt(page, font, { text: 'DATE', x: 2480, top: 1240, size: 8 });
  drawAt(page, font, { text: '1', x: 2218, top: 1256, size: 8 });
  drawAt(page, font, { text: 'ADDENDUM 1', x: 2260, top: 1256, size: 8 });
  drawAt(page, font, { text: '04/01/2024', x: 2480, top: 1256, size: 8 });
  // A detail callout: detail number over the sheet number.
  drawAt(page, font, { text: '5', x: 606, top: 600, size: 10 });
  drawAt(page, font, { text: 'A-501', x: 592, top: 614, size: 10 });
};

const buildSet = async (): Promise<Uint8Array> => {
  const doc = await PDFDocument.create();
  await addSheet(doc, { number: 'A-101', title: 'FIRST FLOOR PLAN', extras: planExtras });
  await addSheet(doc, { number: 'A-501', title: 'WALL DETAILS' });
  await addSheet(doc, { number: 'E-201', title: 'LIGHTING PLAN' });
  return doc.save();
};

const byType = (regions: Region[], type: Region['regionType']): Region[] =>
  regions.filter((r) => r.regionType === type);

describe('drawing sheets', () => {
  it('reads sheet number, title and discipline from the title block', async () => {
    // Prepare
    const bytes = await buildSet();

    // Act
    const result = await extractDocument(bytes, { fileName: 'set.pdf', ocr: false });

    // Assess
    expect(result.classification).toBe('plans');
    expect(result.sheets.map((s) => [s.sheetNumber, s.sheetTitle, s.discipline?.code])).toEqual([
      ['A-101', 'FIRST FLOOR PLAN', 'A'],
      ['A-501', 'WALL DETAILS', 'A'],
      ['E-201', 'LIGHTING PLAN', 'E'],
    ]);
    const first = defined(result.sheets[0], 'a sheet');
    expect(first.pageSize).toEqual({ width: 2592, height: 1728, name: 'ARCH D' });
    expect(first.textSource).toBe('textLayer');
    // The number was drawn at x 2300, top 1600, 60 pt.
    const numberBox = defined(first.sheetNumberBox, 'the sheet number box');
    expect(numberBox.left).toBeCloseTo(2300, 0);
    expect(numberBox.top).toBeGreaterThan(1585);
    expect(numberBox.bottom).toBeLessThan(1665);
  });

  it('gives a sheet without titled views one drawing-area view, titled by the sheet, with its callouts', async () => {
    // Prepare: a floor plan drawn without a view title: room labels, a section head at the drawing's edge.
    const doc = await PDFDocument.create();
    await addSheet(doc, {
      number: 'A-101',
      title: 'FIRST FLOOR PLAN',
      extras: (page, font) => {
        for (const [i, room] of [
          'LOBBY',
          'OFFICE 101',
          'OFFICE 102',
          'STORAGE',
          'CORRIDOR',
          'RESTROOM',
        ].entries())
          drawAt(page, font, { text: room, x: 400 + 300 * (i % 3), top: 400 + 300 * Math.floor(i / 3) });
        drawAt(page, font, { text: '1', x: 64, top: 700, size: 10 });
        drawAt(page, font, { text: 'A-301', x: 52, top: 714, size: 10 });
      },
    });
    const bytes = await doc.save();

    // Act
    const result = await extractDocument(bytes, { ocr: false });

    // Assess
    const views = byType(defined(result.sheets[0], 'a sheet').regions, 'view');
    expect(views).toHaveLength(1);
    const area = defined(views[0], 'the drawing area view');
    expect(area.label).toBe('FIRST FLOOR PLAN');
    expect(area.drawingType).toBe('plan');
    expect(area.normalizedData.viewTitle).toBe('FIRST FLOOR PLAN');
    expect(area.titleDisplayBox).toBeNull();
    expect(area.text).toContain('STORAGE');
    expect(area.normalizedData.sheetReferences.map((r) => `${r.detail}/${r.sheet}`)).toEqual(['1/A-301']);
  });

  it('does not OCR a sparse sheet whose text layer already prints a convincing number', async () => {
    // Prepare: a sheet with little text for its size (OCR 'auto' would read its title block), but whose
    // text layer holds a labelled number in the title block.
    const doc = await PDFDocument.create();
    await addSheet(doc, { number: 'A-501', title: 'WALL DETAILS' });
    const bytes = await doc.save();

    // Act
    const result = await extractDocument(bytes, { ocr: 'auto' });

    // Assess
    expect(defined(result.pages[0], 'a page').ocr).toBeNull();
    expect(result.stats.ocrPages).toBe(0);
    expect(result.sheets.map((s) => [s.sheetNumber, s.sheetTitle, s.textSource])).toEqual([
      ['A-501', 'WALL DETAILS', 'textLayer'],
    ]);
  });

  it('finds the title block, views, notes, keynotes, schedules and revisions with normalized data', async () => {
    // Prepare
    const bytes = await buildSet();

    // Act
    const result = await extractDocument(bytes, { ocr: false });
    const regions = defined(result.sheets[0], 'a sheet').regions;

    // Assess
    const [titleBlock] = byType(regions, 'titleBlock');
    expect(titleBlock?.displayBox.left).toBeCloseTo(2200, -1);
    expect(titleBlock?.displayBox.top).toBeCloseTo(1300, -1);
    expect(titleBlock?.text).toContain('RIVERSIDE LIBRARY RENOVATION');

    const [view] = byType(regions, 'view');
    expect(view?.label).toBe('1 FIRST FLOOR PLAN');
    expect(view?.drawingType).toBe('plan');
    expect(view?.normalizedData.viewNumber).toBe('1');
    expect(view?.normalizedData.scale).toEqual({ text: '1/8" = 1\'-0"', ratio: 1 / 96 });
    expect(view?.titleDisplayBox?.left).toBeCloseTo(100, -1);
    expect(view?.normalizedData.sheetReferences.map((r) => r.text)).toContain('5/A-501');

    const [notes] = byType(regions, 'generalNotes');
    expect(notes?.label).toBe('GENERAL NOTES');
    expect(notes?.text).toContain('VERIFY ALL DIMENSIONS IN FIELD.');
    expect(notes?.normalizedData.specReferences).toEqual([
      { text: 'SECTION 09 29 00', sectionNumber: '09 29 00' },
    ]);
    expect(notes?.normalizedData.sheetReferences.map((r) => [r.detail, r.sheetNormalized])).toContainEqual([
      '5',
      'A-501',
    ]);
    expect(notes?.normalizedData.sheetNumber).toBe('A-101');

    const [keynotes] = byType(regions, 'keynotes');
    expect(keynotes?.normalizedData.keynotes).toEqual([
      { key: '1', text: 'PROVIDE FIRE EXTINGUISHER CABINET.' },
      { key: '2', text: 'PATCH AND REPAIR EXISTING WALL.' },
    ]);

    const [schedule] = byType(regions, 'schedule');
    expect(schedule?.label).toBe('DOOR SCHEDULE');
    expect(schedule?.normalizedData.schedule).toEqual({
      columns: ['MARK', 'WIDTH', 'HEIGHT', 'MATERIAL'],
      rows: [
        { MARK: '101', WIDTH: '3\'-0"', HEIGHT: '7\'-0"', MATERIAL: 'WOOD' },
        { MARK: '102', WIDTH: '3\'-6"', HEIGHT: '7\'-0"', MATERIAL: 'HOLLOW METAL' },
      ],
    });

    expect(defined(result.sheets[0], 'a sheet').revisions).toEqual([
      { mark: '1', description: 'ADDENDUM 1', date: '04/01/2024' },
    ]);
    // Every region box lies on the page.
    for (const r of regions) {
      expect(r.displayBox.left).toBeGreaterThanOrEqual(0);
      expect(r.displayBox.right).toBeLessThanOrEqual(2592);
      expect(r.displayBox.bottom).toBeLessThanOrEqual(1728);
    }
  });

  it('reports boxes in the displayed space of rotated and cropped pages', async () => {
    // Prepare: the same sheet stored with /Rotate 90, and one with a CropBox offset from the MediaBox.
    const doc = await PDFDocument.create();
    await addSheet(doc, { number: 'A-101', title: 'FIRST FLOOR PLAN', rotate: 90 });
    const cropped = await addSheet(doc, { number: 'A-102', title: 'SECOND FLOOR PLAN' });
    cropped.setCropBox(100, 20, 2380, 1680); // x, y, width, height: [100 20 2480 1700]
    const bytes = await doc.save();

    // Act
    const result = await extractDocument(bytes, { ocr: false });

    // Assess: /Rotate 90 turns the page clockwise, so unrotated (x, top) lands at (1728 - top, x).
    const [rotated, crop] = result.pages;
    expect([rotated?.width, rotated?.height, rotated?.rotation]).toEqual([1728, 2592, 90]);
    const rotatedSheet = defined(
      result.sheets.find((s) => s.pageNumber === 1),
      'the sheet of page 1',
    );
    expect(rotatedSheet.sheetNumber).toBe('A-101');
    const box = defined(rotatedSheet.sheetNumberBox, 'the sheet number box of page 1');
    expect(box.top).toBeCloseTo(2300, -1);
    expect(box.right).toBeLessThan(1728 - 1585);
    expect(box.left).toBeGreaterThan(1728 - 1675);
    // CropBox [100 20 2480 1700]: displayed 2380 x 1680, x shifted by -100, top by -(1728 - 1700) = -28.
    expect([crop?.width, crop?.height]).toEqual([2380, 1680]);
    const cropSheet = defined(
      result.sheets.find((s) => s.pageNumber === 2),
      'the sheet of page 2',
    );
    const cropBox = defined(cropSheet.sheetNumberBox, 'the sheet number box of page 2');
    expect(cropBox.left).toBeCloseTo(2200, 0);
    expect(cropBox.top).toBeGreaterThan(1585 - 28);
    expect(cropBox.bottom).toBeLessThan(1665 - 28);
  });
});
