import { lineTo, moveTo, PDFDocument, stroke } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { isExtractionError } from '../../../functions/engine/errors.ts';
import { openPdf } from '../../../functions/engine/io/pdf.ts';
import { renderRegion } from '../../../functions/engine/io/render.ts';
import { DEFAULT_LIMITS } from '../../../functions/engine/limits.ts';
import { ARCH_D } from './fixtures.ts';

/**
 * A sheet with many short strokes (one path operator each, as CAD plots draw them) in its top-left quarter and
 * nothing in its bottom-right corner.
 */
const busySheet = async (strokes: number): Promise<Uint8Array> => {
  const doc = await PDFDocument.create();
  const page = doc.addPage(ARCH_D);
  for (let i = 0; i < strokes; i++) {
    const x = 20 + (i % 100) * 6;
    const y = ARCH_D[1] - 20 - Math.floor(i / 100) * 6;
    page.pushOperators(moveTo(x, y), lineTo(x + 4, y), stroke());
  }
  return doc.save();
};

const budget = {
  timeoutMs: 30_000,
  maxGrowthBytes: 1024 * 1024 * 1024,
  maxPatternFills: 200,
  maxOperators: 1500,
};

const errorCodeOf = async (promise: Promise<unknown>): Promise<string | null> => {
  try {
    await promise;
    return null;
  } catch (error) {
    return isExtractionError(error) ? error.code : 'other';
  }
};

describe('render budget', () => {
  it('counts only the operators a render of part of the page draws', async () => {
    // Prepare: 2000 strokes, more operators than the budget, all far from the bottom-right corner.
    const opened = await openPdf(await busySheet(2000), DEFAULT_LIMITS);
    const { doc } = await opened.pdfjsDocument();
    const page = await doc.getPage(1);
    const [width, height] = ARCH_D;
    const corner = { x0: width - 300, y0: height - 200, x1: width, y1: height };

    // Act
    const cornerCode = await errorCodeOf(renderRegion(page, corner, 72, 40_000_000, budget));
    const wholeCode = await errorCodeOf(
      renderRegion(page, { x0: 0, y0: 0, x1: width, y1: height }, 36, 40_000_000, budget),
    );

    // Assess
    expect(cornerCode).toBeNull();
    expect(wholeCode).toBe('resource_limit');
  });
});
