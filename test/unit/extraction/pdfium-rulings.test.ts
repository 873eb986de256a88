import {
  clip,
  concatTransformationMatrix,
  degrees,
  drawObject,
  endPath,
  lineTo,
  moveTo,
  PDFDocument,
  popGraphicsState,
  pushGraphicsState,
  rectangle,
  stroke,
} from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { openPdf, pageGeometry } from '../../../functions/engine/io/pdf.ts';
import { type Ruling, readPdfiumRulings, readRulings } from '../../../functions/engine/io/rulings.ts';
import { DEFAULT_LIMITS } from '../../../functions/engine/limits.ts';
import { ARCH_D } from './fixtures.ts';

/**
 * A sheet turned by `rotate` with: a title-block frame (a stroked rectangle), a ruling inside a form
 * XObject placed with a matrix, a viewport's clipping rectangle 50 pt inside the page, and a rectangle that
 * is neither filled nor stroked (`re n`).
 */
const ruledSheet = async (rotate: 0 | 90): Promise<Uint8Array> => {
  const doc = await PDFDocument.create();
  const page = doc.addPage(ARCH_D);
  page.setRotation(degrees(rotate));
  const [width, height] = ARCH_D;
  page.pushOperators(
    pushGraphicsState(),
    rectangle(50, 50, width - 100, height - 100),
    clip(),
    endPath(),
    rectangle(2000, 50, 500, 300),
    stroke(),
    moveTo(2000, 200),
    lineTo(2500, 200),
    stroke(),
    popGraphicsState(),
  );
  const form = doc.context.stream('0 0 m 400 0 l S', {
    Type: 'XObject',
    Subtype: 'Form',
    BBox: [0, 0, 500, 500],
  });
  const name = page.node.newXObject('Ruled', doc.context.register(form));
  page.pushOperators(
    pushGraphicsState(),
    concatTransformationMatrix(1, 0, 0, 1, 100, 1500),
    drawObject(name),
    popGraphicsState(),
    rectangle(600, 600, 400, 300),
    endPath(),
  );
  return doc.save();
};

const key = (ruling: Ruling): string =>
  `${ruling.axis}${Math.round(ruling.at)}:${Math.round(ruling.from)}-${Math.round(ruling.to)}`;

describe('rulings from PDFium page objects', () => {
  it.each([0, 90] as const)(
    'are the rulings of pdf.js operator list, forms and clipping paths included, but for paths neither filled nor stroked (/Rotate %i)',
    async (rotate) => {
      // Prepare
      const opened = await openPdf(await ruledSheet(rotate), DEFAULT_LIMITS);
      const pdfjsPage = await (await opened.pdfjsDocument()).doc.getPage(1);
      const page = opened.pdfium.page(1);

      // Act
      const fromPdfjs = await readRulings(
        pdfjsPage,
        (await opened.pdfjsDocument()).pdfjs,
        pageGeometry(pdfjsPage),
        100,
        1_000_000,
      );
      const fromPdfium = readPdfiumRulings(page, 100, 1_000_000);
      page.close();
      await opened.close();

      // Assess: the `re n` rectangle (600-1000 x 600-900 in PDF space, two 400-pt and two 300-pt sides) is
      // pdf.js's alone; everything else is read the same.
      const pdfjsKeys = fromPdfjs.map(key).sort();
      const pdfiumKeys = fromPdfium.map(key).sort();
      const onlyPdfjs = pdfjsKeys.filter((ruling) => !pdfiumKeys.includes(ruling));
      expect(pdfiumKeys.filter((ruling) => !pdfjsKeys.includes(ruling))).toEqual([]);
      expect(onlyPdfjs).toHaveLength(4);
      expect(pdfiumKeys.length).toBeGreaterThanOrEqual(9);
    },
  );
});
