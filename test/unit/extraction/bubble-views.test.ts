import { lineTo, moveTo, PDFDocument, stroke } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import type { Word } from '../../../functions/engine/geometry.ts';
import { type Bubble, circlesOf, findBubbles } from '../../../functions/engine/io/bubbles.ts';
import { openPdf, pageGeometry } from '../../../functions/engine/io/pdf.ts';
import { DEFAULT_LIMITS } from '../../../functions/engine/limits.ts';
import { titleBubbles, viewFromStrip } from '../../../functions/engine/pages/bubble-views.ts';

/** A circle drawn as `count` separate chords, as plot drivers draw them. */
const chords = (cx: number, cy: number, radius: number, count: number) =>
  Array.from({ length: count }, (_, i) => {
    const a = (2 * Math.PI * i) / count;
    const b = (2 * Math.PI * (i + 1)) / count;
    return {
      x0: cx + radius * Math.cos(a),
      y0: cy + radius * Math.sin(a),
      x1: cx + radius * Math.cos(b),
      y1: cy + radius * Math.sin(b),
    };
  });

const ocrWord = (text: string, x0: number, y0: number, size: number, confidence = 95): Word => ({
  text,
  x0,
  y0,
  x1: x0 + text.length * size * 0.7,
  y1: y0 + size,
  size,
  dir: 0,
  font: 'ocr',
  source: 'ocr',
  confidence,
});

const bubble: Bubble = { box: { x0: 280, y0: 573, x1: 318, y1: 611 }, diameter: 38 };

describe('bubbles', () => {
  it('finds a circle drawn as separate chords, and not a square of the same size', () => {
    // Prepare: a circle of 36 chords, a circle of four quarter arcs (their chords), and a square.
    const circle = chords(300, 300, 18, 36);
    const arcs = chords(500, 300, 18, 4);
    const square = [
      { x0: 700, y0: 282, x1: 736, y1: 282 },
      { x0: 736, y0: 282, x1: 736, y1: 318 },
      { x0: 736, y0: 318, x1: 700, y1: 318 },
      { x0: 700, y0: 318, x1: 700, y1: 282 },
    ];

    // Act
    const found = circlesOf([...circle, ...arcs, ...square]);

    // Assess
    expect(found.map((b) => Math.round(b.box.x0))).toEqual([282, 482]);
    expect(found.map((b) => Math.round(b.diameter))).toEqual([36, 36]);
  });

  it('finds the circles a page strokes as separate chords, and the short strokes of lettering beside one', async () => {
    // Prepare: two circles of 24 chords on a letter page; beside the first, an `E` drawn 4 times in strokes.
    const pdf = await PDFDocument.create();
    const page = pdf.addPage([612, 792]);
    for (const cx of [100, 400])
      for (const c of chords(cx, 400, 18, 24))
        page.pushOperators(moveTo(c.x0, c.y0), lineTo(c.x1, c.y1), stroke());
    for (let letter = 0; letter < 4; letter++) {
      const x = 130 + letter * 14;
      page.pushOperators(moveTo(x, 392), lineTo(x, 408), lineTo(x + 10, 408), stroke());
      page.pushOperators(moveTo(x, 400), lineTo(x + 8, 400), stroke());
      page.pushOperators(moveTo(x, 392), lineTo(x + 10, 392), stroke());
    }
    const opened = await openPdf(await pdf.save(), DEFAULT_LIMITS);
    const { doc, pdfjs } = await opened.pdfjsDocument();
    const pdfPage = await doc.getPage(1);

    // Act
    const { bubbles, inkIn } = await findBubbles(pdfPage, pdfjs, pageGeometry(pdfPage));

    // Assess (display y runs down: the circles' centres are at 792 - 400)
    expect(bubbles.map((b) => Math.round(b.box.x0))).toEqual([82, 382]);
    expect(inkIn({ x0: 125, y0: 380, x1: 200, y1: 404 })).toBeGreaterThanOrEqual(12);
    expect(inkIn({ x0: 425, y0: 380, x1: 500, y1: 404 })).toBe(0);
  });

  it('keeps the bubbles with a line at their height running on to their right', () => {
    const lone: Bubble = { box: { x0: 900, y0: 573, x1: 938, y1: 611 }, diameter: 38 };
    const underline = { axis: 'h' as const, at: 612, from: 318, to: 640 };
    expect(titleBubbles([bubble, lone], [underline], null)).toEqual([bubble]);
  });
});

describe('view titles beside bubbles', () => {
  it('reads the title beside the bubble and the scale under it', () => {
    // Prepare: a note's last line above the bubble, the title beside it, the scale under the title.
    const words = [
      ocrWord('OTHERWISE', 330, 555, 10),
      ocrWord('PARKING', 330, 582, 20),
      ocrWord('SPACE', 470, 582, 20),
      ocrWord('LAYOUT', 570, 582, 20),
      ocrWord('N.T.S.', 330, 612, 8),
    ];

    // Act
    const view = viewFromStrip(bubble, words, '1');

    // Assess
    expect(view?.viewTitle).toBe('PARKING SPACE LAYOUT');
    expect(view?.viewNumber).toBe('1');
    expect(view?.scaleText).toBe('N.T.S.');
    expect(view?.titleBox?.x0).toBe(280);
  });

  it('reads one title row however OCR sized its words, without the marks at its ends or the drawing beyond', () => {
    // Prepare: the first word read taller than the others, a mark before the title, a misread stroke after it.
    const words = [
      ocrWord('“FOUNDATION', 330, 580, 26, 60),
      ocrWord('FRAMING', 520, 584, 20, 96),
      ocrWord('PLAN', 640, 584, 20, 96),
      ocrWord('[UN', 720, 584, 20, 38),
    ];

    // Act
    const view = viewFromStrip(bubble, words, null);

    // Assess
    expect(view?.viewTitle).toBe('FOUNDATION FRAMING PLAN');
  });

  it('gives no view for a dimension or elevation label beside a circle, nor for lettering read with low confidence', () => {
    expect(
      viewFromStrip(bubble, [ocrWord('WAY', 330, 582, 14), ocrWord('—6.6"', 400, 582, 14)], null),
    ).toBeNull();
    expect(viewFromStrip(bubble, [ocrWord('PARKING', 330, 582, 20, 40)], null)).toBeNull();
  });
});
