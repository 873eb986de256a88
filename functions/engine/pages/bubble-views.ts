/**
 * View titles of outlined sheets (lettering drawn as paths, no text to read): the standard view-title form is a
 * number bubble with the title beside it, on or over a line (an underline, or the border of the view's panel)
 * and the scale under it. The bubbles and lines are in the drawing's vectors, so only the strip beside each
 * bubble that has such a line is OCR'd (from one render of their common area), and the bubble's inside for the
 * view number. A strip whose first line is not lettering read with confidence (a grid line, a section marker's
 * cut line) gives no view.
 */
import { createCanvas } from '@napi-rs/canvas';
import { drawingTypeOf, type RegionDraft } from '../drawings/region-draft.ts';
import { SCALE_TEXT_RE, titleTextOf } from '../drawings/sheet-title.ts';
import { type Box, boxOf, centerInside, centerY, clampBox, type Line, type Word } from '../geometry.ts';
import { type Bubble, findBubbles } from '../io/bubbles.ts';
import { keepRender, maskRulings, type OcrRequest, recognize, renderForOcr, toWords } from '../io/ocr.ts';
import { type Ruling, readRulings } from '../io/rulings.ts';
import { buildLines } from '../layout.ts';

/** Pages with more operators than this are not searched for lines (as for the title block's). */
const MAX_OPERATORS = 2_000_000;
/** Most bubbles read per sheet (a sheet of details has a dozen; more are grid or keynote bubbles). */
const MAX_BUBBLES = 24;
/** A title runs at most this many bubble diameters to the right of its bubble. */
const TITLE_REACH = 16;
/** Title lettering is read at this many pixels per bubble diameter (a title's capitals are about half of it). */
const PIXELS_PER_DIAMETER = 96;
const MIN_DPI = 100;
const MAX_DPI = 200;
/**
 * View-number bubbles are at least this large (3/8 in at full size, about 0.22 in on a half-size print);
 * smaller circles are keynote and tag symbols.
 */
const MIN_TITLE_BUBBLE = 16;
/** A word after a title's first read with less confidence than this is the drawing beyond the title. */
const WORD_CONFIDENCE = 50;
/** A title line read with less confidence than this is strokes of the drawing, not lettering. */
const MIN_TITLE_CONFIDENCE = 65;

/**
 * Bubbles that carry a view title: a horizontal line at the bubble's height (from just above to just under it)
 * runs on at least three diameters to its right — the title's underline, or the border the title stands on.
 */
export const titleBubbles = (
  bubbles: readonly Bubble[],
  rulings: readonly Ruling[],
  titleBlock: Box | null,
): Bubble[] =>
  bubbles
    .filter((b) => b.diameter >= MIN_TITLE_BUBBLE && !(titleBlock && centerInside(titleBlock, b.box)))
    .filter((b) =>
      rulings.some(
        (r) =>
          r.axis === 'h' &&
          r.at >= b.box.y0 - 0.6 * b.diameter &&
          r.at <= b.box.y1 + 0.6 * b.diameter &&
          r.from <= b.box.x1 + 1.5 * b.diameter &&
          r.to >= b.box.x1 + 3 * b.diameter,
      ),
    )
    .slice(0, MAX_BUBBLES);

/** Short drawn pieces beside a bubble that make lettering: a few capitals are dozens. */
const MIN_TITLE_INK = 12;

/** Where a title's first letters stand: beside the bubble, at its height. */
const titleZoneOf = (bubble: Bubble): Box => ({
  x0: bubble.box.x1 + 0.15 * bubble.diameter,
  y0: bubble.box.y0,
  x1: bubble.box.x1 + 3 * bubble.diameter,
  y1: bubble.box.y1,
});

/** The strip a bubble's title and scale can occupy: to its right, up to the next bubble on its row. */
const stripOf = (bubble: Bubble, others: readonly Bubble[], width: number, height: number): Box => {
  const d = bubble.diameter;
  let x1 = bubble.box.x1 + TITLE_REACH * d;
  for (const other of others) {
    const sameRow = Math.abs(centerY(other.box) - centerY(bubble.box)) < d;
    if (other !== bubble && sameRow && other.box.x0 > bubble.box.x1)
      x1 = Math.min(x1, other.box.x0 - 0.2 * d);
  }
  return clampBox(
    { x0: bubble.box.x1 - 0.1 * d, y0: bubble.box.y0 - 0.4 * d, x1, y1: bubble.box.y1 + 0.9 * d },
    width,
    height,
  );
};

const meanConfidence = (line: Line): number =>
  line.words.reduce((sum, w) => sum + (w.confidence ?? 0), 0) / Math.max(1, line.words.length);

/**
 * Title lettering: capitals mostly, and mostly letters (`WAY —6.6"` and `S CB +6.3" FROM` are a drawing's
 * dimension and elevation labels beside a circle).
 */
const isTitleLettering = (text: string): boolean => {
  const letters = text.replace(/[^A-Za-z]/g, '');
  const printed = text.replace(/\s/g, '');
  return (
    letters.length >= 3 &&
    letters.replace(/[^A-Z]/g, '').length >= 0.7 * letters.length &&
    letters.length >= 0.8 * printed.length
  );
};

/** Marks OCR reads at a title's ends (`“SOUTH`, `¢`): a title starts with a letter, a digit or a parenthesis. */
const EDGE_MARKS_RE = /^[^A-Za-z0-9(]+|[^A-Za-z0-9).'"]+$/g;

/**
 * The row of words beside a bubble, at its height, left to right from the first word within two diameters of
 * it to a gap over three letter heights: one line of title, however OCR sized its words (a word read taller
 * than the others would start a line of its own).
 */
const titleRowOf = (bubble: Bubble, words: readonly Word[]): Line | null => {
  const d = bubble.diameter;
  const inRow = words
    .filter(
      (w) =>
        w.dir === 0 &&
        /[A-Za-z0-9]/.test(w.text) &&
        centerY(w) >= bubble.box.y0 - 0.2 * d &&
        centerY(w) <= bubble.box.y1 + 0.2 * d &&
        w.y1 - w.y0 >= 0.15 * d &&
        w.y1 - w.y0 <= 1.1 * d,
    )
    .sort((a, b) => a.x0 - b.x0);
  // The row starts at the tallest word within two diameters of the bubble (a scale line under the title starts
  // there too, in smaller lettering), and holds the words at its height.
  const starts = inRow.filter((w) => w.x0 < bubble.box.x1 + 2 * d);
  const start = starts.reduce<Word | null>(
    (best, w) => (!best || w.y1 - w.y0 > best.y1 - best.y0 ? w : best),
    null,
  );
  if (!start) return null;
  const height = start.y1 - start.y0;
  const chain: Word[] = [start];
  for (const word of inRow) {
    if (word.x0 <= start.x0 || Math.abs(centerY(word) - centerY(start)) > 0.5 * height) continue;
    const last = chain[chain.length - 1];
    // A gap over three letter heights, or a word read with little confidence, ends the title (drawing beyond).
    if (!last || word.x0 - last.x1 > 3 * height || (word.confidence ?? 0) < WORD_CONFIDENCE) break;
    chain.push(word);
  }
  const text = chain
    .map((w) => w.text)
    .join(' ')
    .replace(EDGE_MARKS_RE, '');
  return { ...boxOf(chain), words: chain, text, size: height, dir: 0 };
};

/** The view a bubble's strip reads as: its title line beside the bubble, and a scale on it or under it. */
export const viewFromStrip = (
  bubble: Bubble,
  words: readonly Word[],
  number: string | null,
): RegionDraft | null => {
  const titleLine = titleRowOf(bubble, words);
  if (!titleLine || meanConfidence(titleLine) < MIN_TITLE_CONFIDENCE) return null;
  const lines = [
    titleLine,
    ...buildLines(
      words.filter((w) => !titleLine.words.includes(w)),
      { gapFactor: 3 },
    ),
  ].filter((l) => l.dir === 0);
  const scaleOnLine = SCALE_TEXT_RE.exec(titleLine.text);
  const titleText = titleTextOf(scaleOnLine ? titleLine.text.slice(0, scaleOnLine.index) : titleLine.text);
  // A title starts with a letter or digit (`(W/18" SPACING)` is a note's continuation beside a symbol).
  if (!titleText || !/^[A-Z0-9]/i.test(titleText) || !isTitleLettering(titleText)) return null;
  // The scale under the title, or over it (`N.T.S.` printed above a title that sits on its panel's border).
  const nearTitle = (l: Line): boolean =>
    l !== titleLine &&
    l.x0 < titleLine.x1 &&
    l.x1 > titleLine.x0 &&
    ((l.y0 >= titleLine.y1 - 0.2 * titleLine.size && l.y0 - titleLine.y1 < 1.5 * titleLine.size) ||
      (l.y1 <= titleLine.y0 + 0.2 * titleLine.size && titleLine.y0 - l.y1 < 1.5 * titleLine.size));
  const scaleLine =
    scaleOnLine === null ? lines.find((l) => nearTitle(l) && SCALE_TEXT_RE.test(l.text)) : titleLine;
  const scaleText = scaleLine ? (SCALE_TEXT_RE.exec(scaleLine.text)?.[0].trim() ?? null) : null;
  const title = titleText.replace(/[\s:]+$/, '');
  const titleBox = boxOf([bubble.box, titleLine, ...(scaleLine ? [scaleLine] : [])]);
  const view: RegionDraft = {
    regionType: 'view',
    label: title,
    drawingType: drawingTypeOf(title),
    box: titleBox,
    titleBox,
    lines: scaleLine && scaleLine !== titleLine ? [titleLine, scaleLine] : [titleLine],
    viewNumber: null,
    viewTitle: title,
    scaleText,
  };
  return number ? withViewNumber(view, number) : view;
};

/** A view with the number read in its bubble: `5 ROOF EDGE`. */
const withViewNumber = (view: RegionDraft, number: string): RegionDraft => ({
  ...view,
  viewNumber: number,
  label: `${number} ${view.viewTitle ?? ''}`.trim(),
});

/** Reads one area of a kept render: `masks` painted white first (rulings, the bubble). */
const readArea = async (
  request: OcrRequest,
  area: Box,
  dpi: number,
  rulings: readonly Ruling[],
  masks: readonly Box[],
  margin: number,
  /** Reads only the inside of this bubble. */
  keepInside: Bubble | null = null,
): Promise<Word[]> => {
  const rendered = await renderForOcr(request, area, dpi);
  const { scale, box } = rendered;
  maskRulings(rendered.canvas, rulings, box, scale);
  // A white margin around the crop: tesseract drops lettering that touches the image's edge.
  const pad = Math.round(margin * scale);
  const canvas = createCanvas(rendered.canvas.width + 2 * pad, rendered.canvas.height + 2 * pad);
  const context = canvas.getContext('2d');
  context.fillStyle = '#ffffff';
  context.fillRect(0, 0, canvas.width, canvas.height);
  context.drawImage(rendered.canvas, pad, pad);
  if (keepInside) {
    // Everything outside the circle inside the bubble's ring is painted out (the ring and what touches it).
    const cx = pad + ((keepInside.box.x0 + keepInside.box.x1) / 2 - box.x0) * scale;
    const cy = pad + (centerY(keepInside.box) - box.y0) * scale;
    context.beginPath();
    context.rect(0, 0, canvas.width, canvas.height);
    context.arc(cx, cy, 0.42 * keepInside.diameter * scale, 0, 2 * Math.PI);
    context.fill('evenodd');
  }
  for (const mask of masks)
    context.fillRect(
      pad + (mask.x0 - box.x0) * scale,
      pad + (mask.y0 - box.y0) * scale,
      (mask.x1 - mask.x0) * scale,
      (mask.y1 - mask.y0) * scale,
    );
  const pixels = await recognize(canvas, scale * 72, '6', request.limits.ocrPageTimeoutMs);
  const toPage = (px: number, origin: number): number => origin + (px - pad) / scale;
  return toWords(
    pixels,
    (p) => ({
      x0: toPage(p.x0, box.x0),
      y0: toPage(p.y0, box.y0),
      x1: toPage(p.x1, box.x0),
      y1: toPage(p.y1, box.y0),
    }),
    0,
  );
};

/** The view number inside a bubble (`1`, `A`, or a detail over a sheet: `F` over `CR-05` is `F/CR-05`). */
const numberInside = (words: readonly Word[]): string | null => {
  // The bubble's divider and ring leave marks at a word's ends (`_F`).
  const cleaned = words.map((w) => ({ ...w, text: w.text.replace(/^[_|[\]{}~'`.,]+|[_|[\]{}~'`,]+$/g, '') }));
  const rows = buildLines(
    cleaned.filter((w) => /^[A-Z0-9][A-Z0-9.-]{0,5}$/i.test(w.text) && (w.confidence ?? 0) >= 50),
    { gapFactor: 1.5 },
  ).sort((a, b) => a.y0 - b.y0);
  const texts = rows.map((row) => row.text.replace(/\s+/g, '').toUpperCase());
  if (texts.length === 0 || texts.length > 2) return null;
  return texts.join('/');
};

/** View titles of an outlined sheet read beside its bubbles, with the OCR seconds they took. */
export const readBubbleViews = async (
  request: OcrRequest,
  titleBlock: Box | null,
): Promise<{ views: RegionDraft[]; seconds: number }> => {
  const started = Date.now();
  const { width, height } = request.geometry;
  const { page, pdfjs } = await request.pdfjsPage();
  const found = await findBubbles(page, pdfjs, request.geometry);
  // Only bubbles with lettering beside them are read (a survey or manhole symbol on a street line is not).
  const bubbles = found.bubbles.filter((b) => found.inkIn(titleZoneOf(b)) >= MIN_TITLE_INK);
  if (bubbles.length === 0) return { views: [], seconds: (Date.now() - started) / 1000 };
  // Lines of 10 pt and more, collinear pieces joined row by row (a border drawn in pieces at slightly different
  // heights is one line beside the bubble).
  const rulings = await readRulings(page, pdfjs, request.geometry, 10, MAX_OPERATORS, true).catch(
    () => [] as Ruling[],
  );
  const candidates = titleBubbles(bubbles, rulings, titleBlock);
  if (candidates.length === 0) return { views: [], seconds: (Date.now() - started) / 1000 };
  const strips = candidates.map((b) => stripOf(b, candidates, width, height));
  const smallest = Math.min(...candidates.map((b) => b.diameter));
  const dpi = Math.round(Math.min(MAX_DPI, Math.max(MIN_DPI, (72 * PIXELS_PER_DIAMETER) / smallest)));
  // One render of the strips' and bubbles' common area: every render walks the page's whole operator list.
  const parts = [...strips, ...candidates.map((b) => b.box)];
  // The render is blank outside the parts: it is kept only while they are read.
  const keptBefore = request.renders?.length ?? 0;
  await keepRender(request, boxOf(parts), dpi, parts);
  try {
    return {
      views: await readStrips(request, candidates, strips, rulings, dpi),
      seconds: (Date.now() - started) / 1000,
    };
  } finally {
    request.renders?.splice(keptBefore);
  }
};

/** The views read from the strips beside the bubbles (and their insides), cut from the kept render. */
const readStrips = async (
  request: OcrRequest,
  candidates: readonly Bubble[],
  strips: readonly Box[],
  rulings: readonly Ruling[],
  dpi: number,
): Promise<RegionDraft[]> => {
  const views: RegionDraft[] = [];
  for (const [i, bubble] of candidates.entries()) {
    const strip = strips[i];
    if (!strip) continue;
    // Only lines longer than the lettering is tall are painted out (underlines, borders): the stems of outlined
    // capitals are short rulings too.
    const borders = rulings.filter((r) => r.to - r.from >= 2.5 * bubble.diameter);
    const words = await readArea(request, strip, dpi, borders, [bubble.box], 0.3 * bubble.diameter);
    const view = viewFromStrip(bubble, words, null);
    if (!view) continue;
    const number = numberInside(
      await readArea(request, bubble.box, dpi, [], [], 0.3 * bubble.diameter, bubble),
    );
    views.push(number ? withViewNumber(view, number) : view);
  }
  return views;
};
