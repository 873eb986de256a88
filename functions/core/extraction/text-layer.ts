/**
 * Text layer of one page: pdf.js text items → words in display coordinates (see model.ts).
 */
import { ExtractionError } from './errors.ts';
import type { TextDirection, Word } from './geometry.ts';
import type { PageGeometry, PdfJs, PdfPage } from './pdf.ts';

interface RawTextItem {
  str: string;
  transform: number[];
  width: number;
  height: number;
  fontName: string;
}

interface FontStyle {
  ascent?: number;
  descent?: number;
  vertical?: boolean;
}

const DEFAULT_ASCENT = 0.8;
const DEFAULT_DESCENT = -0.2;

const snapDirection = (dx: number, dy: number): TextDirection | null => {
  const angle = (Math.atan2(dy, dx) * 180) / Math.PI;
  const positiveAngle = (angle + 360) % 360;
  // Keep only text within 10 degrees of an axis; skewed text is rare on sheets and its boxes would be loose.
  for (const target of [0, 90, 180, 270] as const) {
    const diff = Math.min(Math.abs(positiveAngle - target), 360 - Math.abs(positiveAngle - target));
    if (diff <= 10) return target;
  }
  return null;
};

/**
 * Reads the page's text items and splits them into words. Positions inside an item are interpolated by
 * character count (pdf.js does not expose glyph positions), which is exact for monospace and close otherwise.
 */
export const readTextLayerWords = async (
  page: PdfPage,
  pdfjs: PdfJs,
  geometry: PageGeometry,
  maxItems: number,
): Promise<{ words: Word[]; charCount: number }> => {
  const content = await page.getTextContent({ includeMarkedContent: false, disableNormalization: false });
  const items = content.items as unknown[];
  if (items.length > maxItems) {
    throw new ExtractionError(
      'resource_limit',
      `Page ${page.pageNumber} has ${items.length} text items; the limit is ${maxItems}.`,
      { pageNumber: page.pageNumber },
    );
  }
  const styles = content.styles as Record<string, FontStyle>;
  const words: Word[] = [];
  let charCount = 0;
  for (const raw of items) {
    const item = raw as RawTextItem;
    if (typeof item.str !== 'string' || item.str.trim() === '') continue;
    const toDisplay = pdfjs.Util.transform(geometry.transform, item.transform) as number[];
    const [baselineDx = 0, baselineDy = 0, ascentDx = 0, ascentDy = 0, originX = 0, originY = 0] = toDisplay;
    const dir = snapDirection(baselineDx, baselineDy);
    if (dir === null) continue;
    const size = Math.hypot(ascentDx, ascentDy);
    if (!(size > 0.5) || !Number.isFinite(originX) || !Number.isFinite(originY)) continue;
    const style = styles[item.fontName] ?? {};
    const ascent = style.ascent && style.ascent > 0.3 ? style.ascent : DEFAULT_ASCENT;
    const descent =
      style.descent && style.descent < 0 && style.descent > -0.6 ? style.descent : DEFAULT_DESCENT;
    // Unit vectors along the baseline and towards the glyph tops, in display space.
    const ux = Math.cos((dir * Math.PI) / 180);
    const uy = Math.sin((dir * Math.PI) / 180);
    const upx = ascentDx / size;
    const upy = ascentDy / size;
    const total = item.width > 0 ? item.width : item.str.length * size * 0.5;
    const str = item.str;
    const perChar = total / Math.max(1, str.length);
    // Offsets of the glyph tops and bottoms from the baseline (the same for every word of the item).
    const topX = upx * ascent * size;
    const topY = upy * ascent * size;
    const bottomX = upx * descent * size;
    const bottomY = upy * descent * size;
    const re = /\S+/g;
    for (let match = re.exec(str); match !== null; match = re.exec(str)) {
      charCount += match[0].length;
      const start = match.index * perChar;
      const end = (match.index + match[0].length) * perChar;
      const sx = originX + ux * start;
      const sy = originY + uy * start;
      const ex = originX + ux * end;
      const ey = originY + uy * end;
      words.push({
        text: match[0],
        x0: Math.min(sx + topX, sx + bottomX, ex + topX, ex + bottomX),
        y0: Math.min(sy + topY, sy + bottomY, ey + topY, ey + bottomY),
        x1: Math.max(sx + topX, sx + bottomX, ex + topX, ex + bottomX),
        y1: Math.max(sy + topY, sy + bottomY, ey + topY, ey + bottomY),
        size,
        dir,
        font: item.fontName,
        source: 'textLayer',
        confidence: null,
      });
    }
  }
  return { words, charCount };
};
