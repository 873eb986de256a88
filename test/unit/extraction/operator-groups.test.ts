import {
  concatTransformationMatrix,
  lineTo,
  moveTo,
  PDFDocument,
  popGraphicsState,
  pushGraphicsState,
  setLineWidth,
  stroke,
} from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { groupExtents } from '../../../functions/engine/io/operator-groups.ts';
import { drawingOperatorList, loadPdfJs, openPdf, pageGeometry } from '../../../functions/engine/io/pdf.ts';
import { renderRegion } from '../../../functions/engine/io/render.ts';
import { readRulings } from '../../../functions/engine/io/rulings.ts';
import { DEFAULT_LIMITS } from '../../../functions/engine/limits.ts';

const WIDTH = 1000;
const HEIGHT = 600;

/**
 * A CAD-style sheet: every stroke in a group of its own (`q cm w ... S Q`), a grid of them over the page, and a
 * group around two strokes at the bottom-right corner and the top-left corner (its extent spans the page).
 */
const cadSheet = async (): Promise<Uint8Array> => {
  const doc = await PDFDocument.create();
  const page = doc.addPage([WIDTH, HEIGHT]);
  for (let row = 0; row < 10; row++) {
    for (let column = 0; column < 10; column++) {
      page.pushOperators(
        pushGraphicsState(),
        concatTransformationMatrix(1, 0, 0, 1, 50 + column * 90, 40 + row * 55),
        setLineWidth(2),
        moveTo(0, 0),
        lineTo(40, 20),
        stroke(),
        popGraphicsState(),
      );
    }
  }
  page.pushOperators(
    pushGraphicsState(),
    moveTo(960, 20),
    lineTo(990, 30),
    stroke(),
    moveTo(10, 580),
    lineTo(30, 590),
    stroke(),
    popGraphicsState(),
  );
  return doc.save();
};

describe('save/restore groups of an operator list', () => {
  it('gives each group its restore and the display box of what it draws', async () => {
    // Prepare
    const opened = await openPdf(await cadSheet(), DEFAULT_LIMITS);
    const { doc } = await opened.pdfjsDocument();
    const page = await doc.getPage(1);
    const list = await drawingOperatorList(page);

    // Act
    const extents = [...groupExtents(list, await loadPdfJs(), pageGeometry(page)).values()];

    // Assess: 100 small groups and the wide one; the first stroke runs 50..90 x 540..560 on the display.
    const boxes = extents.flatMap((extent) => (extent.box ? [extent.box] : []));
    expect(boxes).toHaveLength(101);
    expect(boxes[0]?.x0).toBeCloseTo(50);
    expect(boxes[0]?.x1).toBeCloseTo(90);
    expect(boxes[0]?.y0).toBeCloseTo(540);
    expect(boxes[0]?.y1).toBeCloseTo(560);
    expect(boxes[100]).toEqual({ x0: 10, y0: 10, x1: 990, y1: 580 });
    await opened.close();
  });

  it('renders part of the page as the full filter-free render does, groups outside it left out', async () => {
    // Prepare
    const opened = await openPdf(await cadSheet(), DEFAULT_LIMITS);
    const { doc } = await opened.pdfjsDocument();
    const page = await doc.getPage(1);
    const corner = { x0: 700, y0: 400, x1: WIDTH, y1: HEIGHT };

    // Act
    const filtered = await renderRegion(page, corner, 100, 40_000_000);
    process.env.NO_RENDER_FILTER = '1';
    const unfiltered = await renderRegion(page, corner, 100, 40_000_000).finally(() => {
      delete process.env.NO_RENDER_FILTER;
    });

    // Assess
    const pixels = (canvas: typeof filtered.canvas) =>
      canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
    const a = pixels(filtered.canvas);
    const b = pixels(unfiltered.canvas);
    let differing = 0;
    let ink = 0;
    for (let at = 0; at < a.length; at += 4) {
      if (a[at] !== b[at]) differing++;
      if ((a[at] ?? 255) < 128) ink++;
    }
    expect(ink).toBeGreaterThan(100);
    expect(differing).toBe(0);
    await opened.close();
  });

  it('reads the same lines from the drawing list after a render drew its paths', async () => {
    // Prepare: a frame of four long lines.
    const doc = await PDFDocument.create();
    const page = doc.addPage([WIDTH, HEIGHT]);
    page.pushOperators(
      moveTo(20, 20),
      lineTo(980, 20),
      lineTo(980, 580),
      lineTo(20, 580),
      lineTo(20, 20),
      stroke(),
    );
    const opened = await openPdf(await doc.save(), DEFAULT_LIMITS);
    const pdfPage = await (await opened.pdfjsDocument()).doc.getPage(1);
    const geometry = pageGeometry(pdfPage);
    const pdfjs = await loadPdfJs();

    // Act
    const before = await readRulings(pdfPage, pdfjs, geometry, 100, 1_000_000);
    await renderRegion(pdfPage, { x0: 0, y0: 0, x1: WIDTH, y1: HEIGHT }, 50, 40_000_000);
    const after = await readRulings(pdfPage, pdfjs, geometry, 100, 1_000_000);

    // Assess
    expect(before).toHaveLength(4);
    expect(after).toEqual(before);
    await opened.close();
  });
});
