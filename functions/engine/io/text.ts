/**
 * Text with positions from PDFium's text page (FPDFText_*): characters with their boxes, font size and
 * matrix, grouped into words in display coordinates (see docs/extraction.md, Coordinate system).
 *
 * PDFium orders the characters as they are drawn and puts a space or a line break (a generated character)
 * where the drawing jumps; a word is a run of characters between white space. A run is also cut where a
 * character leaves the run's line or reading direction (two words drawn in one run with no space between).
 * The box of a word runs along its baseline from its first glyph's origin to its last glyph's advance, and
 * across it from the font's descent to its ascent, as pdf.js's text items did (so the heuristics built on
 * those boxes see the same boxes); the size is the font size in display points.
 */
import { ExtractionError } from '../errors.ts';
import type { TextDirection, Word } from '../geometry.ts';
import { heapOf, type Pdfium, type PdfiumPage, rawExports, scratchOf } from './pdfium.ts';

const DEFAULT_ASCENT = 0.8;
const DEFAULT_DESCENT = -0.2;

/**
 * An embedded TrueType or OpenType font program's ascender and descender (`hhea`, over `head`'s units per
 * em); null for other font programs (Type 1, bare CFF).
 */
const fontProgramMetrics = (
  pdfium: Pdfium,
  font: number,
  lengthPtr: number,
): { ascent: number; descent: number } | null => {
  if (!pdfium.FPDFFont_GetFontData(font, 0, 0, lengthPtr)) return null;
  const length = heapOf(pdfium).HEAPU32[lengthPtr / 4] ?? 0;
  if (length < 12 || length > 64 * 1024 * 1024) return null;
  const ptr = pdfium.pdfium.wasmExports.malloc(length);
  try {
    if (!pdfium.FPDFFont_GetFontData(font, ptr, length, lengthPtr)) return null;
    const data = heapOf(pdfium).HEAPU8.slice(ptr, ptr + length);
    const view = new DataView(data.buffer);
    const tables = view.getUint16(4);
    let head = -1;
    let hhea = -1;
    for (let index = 0; index < tables && 12 + index * 16 + 16 <= length; index++) {
      const record = 12 + index * 16;
      const tag = String.fromCharCode(
        data[record] ?? 0,
        data[record + 1] ?? 0,
        data[record + 2] ?? 0,
        data[record + 3] ?? 0,
      );
      const offset = view.getUint32(record + 8);
      if (tag === 'head') head = offset;
      else if (tag === 'hhea') hhea = offset;
    }
    if (head < 0 || hhea < 0 || head + 20 > length || hhea + 8 > length) return null;
    const unitsPerEm = view.getUint16(head + 18);
    const ascent = view.getInt16(hhea + 4) / unitsPerEm;
    const descent = view.getInt16(hhea + 6) / unitsPerEm;
    return unitsPerEm > 0 && ascent > 0 && descent < 0 ? { ascent, descent } : null;
  } finally {
    pdfium.pdfium.wasmExports.free(ptr);
  }
};

/** The reading direction of a baseline vector, or null for text more than 10 degrees off an axis. */
export const snapDirection = (dx: number, dy: number): TextDirection | null => {
  const angle = (Math.atan2(dy, dx) * 180) / Math.PI;
  const positiveAngle = (angle + 360) % 360;
  for (const target of [0, 90, 180, 270] as const) {
    const diff = Math.min(Math.abs(positiveAngle - target), 360 - Math.abs(positiveAngle - target));
    if (diff <= 10) return target;
  }
  return null;
};

const isSpace = (code: number): boolean =>
  code === 0x20 ||
  code === 0x0a ||
  code === 0x0d ||
  code === 0x09 ||
  code === 0xa0 ||
  code === 0x3000 ||
  code === 0;

interface FontMetrics {
  name: string;
  ascent: number;
  descent: number;
}

/** What one word is built from: its characters' text, and their extents along and across the baseline. */
interface OpenWord {
  text: string;
  dir: TextDirection;
  size: number;
  /** The font size as set (Tf), to tell a superscript or a change of size. */
  fontSize: number;
  font: FontMetrics;
  /** Baseline point of the word's start, the baseline unit vector and the up unit vector (display space). */
  ox: number;
  oy: number;
  ux: number;
  uy: number;
  upx: number;
  upy: number;
  /** Extent along the baseline from the origin, and the baseline's offset across (for the line check). */
  start: number;
  end: number;
  /** Where the last character's origin lies along the baseline (one glyph may give two: `LA`). */
  last: number;
}

/**
 * The page's words. `maxChars` bounds the characters read (a page over it is a `resource_limit`).
 */
export const readPdfiumWords = (page: PdfiumPage, maxChars: number): { words: Word[]; charCount: number } => {
  const { pdfium, geometry } = page;
  const textPage = page.textPage();
  const count = textPage ? pdfium.FPDFText_CountChars(textPage) : 0;
  if (count > maxChars) {
    throw new ExtractionError(
      'resource_limit',
      `Page ${page.pageNumber} has ${count} characters; the limit is ${maxChars}.`,
      { pageNumber: page.pageNumber },
    );
  }
  if (count <= 0) return { words: [], charCount: 0 };
  const scratch = scratchOf(pdfium);
  const heap = pdfium.pdfium;
  const raw = rawExports(pdfium);
  const getUnicode = raw.FPDFText_GetUnicode as (t: number, i: number) => number;
  const isGenerated = raw.FPDFText_IsGenerated as (t: number, i: number) => number;
  const getMatrix = raw.FPDFText_GetMatrix as (t: number, i: number, m: number) => number;
  const getOrigin = raw.FPDFText_GetCharOrigin as (t: number, i: number, x: number, y: number) => number;
  const getFontSize = raw.FPDFText_GetFontSize as (t: number, i: number) => number;
  const getLooseBox = raw.FPDFText_GetLooseCharBox as (t: number, i: number, r: number) => number;
  const getTextObject = raw.FPDFText_GetTextObject as (t: number, i: number) => number;
  const getFont = raw.FPDFTextObj_GetFont as (o: number) => number;
  const [ta, tb, tc, td, te, tf] = geometry.transform;
  const fonts = new Map<number, FontMetrics>();
  const fontOf = (charIndex: number): FontMetrics => {
    const object = getTextObject(textPage, charIndex);
    const font = object ? getFont(object) : 0;
    const known = fonts.get(font);
    if (known) return known;
    let name = 'pdfium';
    let ascent = DEFAULT_ASCENT;
    let descent = DEFAULT_DESCENT;
    if (font) {
      const nameLength = pdfium.FPDFFont_GetBaseFontName(font, 0, 0);
      if (nameLength > 1) {
        const ptr = heap.wasmExports.malloc(nameLength);
        pdfium.FPDFFont_GetBaseFontName(font, ptr, nameLength);
        name = heap.UTF8ToString(ptr);
        heap.wasmExports.free(ptr);
      }
      // Ascent and descent as fractions of the size, as pdf.js took them: an embedded TrueType program's own
      // (its `hhea` table), else the font descriptor's (PDFium's ascent and descent; for an embedded program
      // they may be its bounding box, a fifth taller, and the lines of a text page would overlap).
      const own = pdfium.FPDFFont_GetIsEmbedded(font) ? fontProgramMetrics(pdfium, font, scratch.ptr) : null;
      if (own) {
        ascent = own.ascent;
        descent = own.descent;
      } else {
        if (pdfium.FPDFFont_GetAscent(font, 1000, scratch.ptr)) ascent = scratch.f32(0) / 1000;
        if (pdfium.FPDFFont_GetDescent(font, 1000, scratch.ptr)) descent = scratch.f32(0) / 1000;
      }
      if (!(ascent > 0.3)) ascent = DEFAULT_ASCENT;
      if (!(descent < 0 && descent > -0.6)) descent = DEFAULT_DESCENT;
    }
    const metrics = { name, ascent, descent };
    fonts.set(font, metrics);
    return metrics;
  };

  const words: Word[] = [];
  /** Per word: it ends at a space of the file's own (not one PDFium put in a gap). */
  const spaced: Array<{ after: boolean }> = [];
  let charCount = 0;
  let open: OpenWord | null = null;
  const close = (endsAtSpace = false): void => {
    if (!open) return;
    const word = open;
    open = null;
    spaced.push({ after: endsAtSpace });
    const { ox, oy, ux, uy, upx, upy, size, font } = word;
    const topX = upx * font.ascent * size;
    const topY = upy * font.ascent * size;
    const bottomX = upx * font.descent * size;
    const bottomY = upy * font.descent * size;
    const sx = ox + ux * word.start;
    const sy = oy + uy * word.start;
    const ex = ox + ux * word.end;
    const ey = oy + uy * word.end;
    charCount += word.text.length;
    words.push({
      text: word.text,
      x0: Math.min(sx + topX, sx + bottomX, ex + topX, ex + bottomX),
      y0: Math.min(sy + topY, sy + bottomY, ey + topY, ey + bottomY),
      x1: Math.max(sx + topX, sx + bottomX, ex + topX, ex + bottomX),
      y1: Math.max(sy + topY, sy + bottomY, ey + topY, ey + bottomY),
      size,
      dir: word.dir,
      font: font.name,
      source: 'textLayer',
      confidence: null,
    });
  };

  // The page's text in one call (UTF-16, one unit a character, generated spaces and line breaks included).
  const textPtr = heap.wasmExports.malloc((count + 1) * 2);
  const textUnits = raw.FPDFText_GetText?.(textPage, 0, count, textPtr) ?? 0;
  const units = heapOf(pdfium).HEAPU16.slice(textPtr / 2, textPtr / 2 + Math.max(0, textUnits - 1));
  heap.wasmExports.free(textPtr);
  const aligned = units.length === count;
  /** The display box of the character's loose box (advance width by ascent and descent), in `box`. */
  const box = { x0: 0, y0: 0, x1: 0, y1: 0 };
  const looseBox = (index: number): boolean => {
    if (!getLooseBox(textPage, index, scratch.ptr)) return false;
    const left = scratch.f32(0);
    const top = scratch.f32(1);
    const right = scratch.f32(2);
    const bottom = scratch.f32(3);
    const xa = ta * left + tc * top + te;
    const ya = tb * left + td * top + tf;
    const xb = ta * right + tc * bottom + te;
    const yb = tb * right + td * bottom + tf;
    box.x0 = Math.min(xa, xb);
    box.x1 = Math.max(xa, xb);
    box.y0 = Math.min(ya, yb);
    box.y1 = Math.max(ya, yb);
    return true;
  };
  for (let index = 0; index < count; index++) {
    const code = aligned ? (units[index] ?? 0) : getUnicode(textPage, index);
    if (isGenerated(textPage, index) === 1) {
      // PDFium puts a space where the drawing leaves a gap (a word ends there, as pdf.js's items did), and a
      // line break where the text matrix changes, which a word drawn in two pieces also does ("Mana" "ger:"):
      // whether the next character goes on this word is left to its position (below).
      if (code === 0x20) close();
      continue;
    }
    if (isSpace(code)) {
      close(true);
      continue;
    }
    if (!looseBox(index)) continue;
    // PDFium gives a hyphen that ends a line (a soft hyphen) as U+FFFE; pdf.js, as the hyphen it is.
    const char = code === 0xfffe ? '-' : String.fromCharCode(code);
    if (!getOrigin(textPage, index, scratch.ptr, scratch.ptr + 8)) continue;
    const userX = scratch.f64(0);
    const userY = scratch.f64(1);
    const x = ta * userX + tc * userY + te;
    const y = tb * userX + td * userY + tf;
    const fontSize = getFontSize(textPage, index);
    if (open) {
      const word: OpenWord = open;
      // The character's origin along and across the word's baseline, and its far edge along it.
      const at = (x - word.ox) * word.ux + (y - word.oy) * word.uy;
      const across = (x - word.ox) * -word.uy + (y - word.oy) * word.ux;
      const a0 = (box.x0 - word.ox) * word.ux + (box.y0 - word.oy) * word.uy;
      const a1 = (box.x1 - word.ox) * word.ux + (box.y1 - word.oy) * word.uy;
      // One word: the same font size (a superscript is a word of its own, as pdf.js's items made it), the same
      // baseline, and no jump back or ahead along it.
      const sameRun =
        Math.abs(fontSize - word.fontSize) <= 0.02 * Math.abs(word.fontSize) &&
        Math.abs(across) < 0.25 * word.size &&
        at > Math.min(word.end - 0.5 * word.size, word.last - 0.1 * word.size) &&
        at < word.end + 0.6 * word.size;
      if (sameRun) {
        word.text += char;
        word.last = at;
        word.end = Math.max(word.end, a0, a1);
        continue;
      }
      close();
    }
    // A word starts: its baseline, reading direction and size from the character's matrix and origin.
    if (!getMatrix(textPage, index, scratch.ptr)) continue;
    const ma = scratch.f32(0);
    const mb = scratch.f32(1);
    const mc = scratch.f32(2);
    const md = scratch.f32(3);
    // The text rendering matrix scales the text matrix by the font size, whose sign counts: a size of -1
    // under a matrix turned half a turn is upright text (TCP-032 draws its notes so).
    const bx = (ta * ma + tc * mb) * fontSize;
    const by = (tb * ma + td * mb) * fontSize;
    const vx = (ta * mc + tc * md) * fontSize;
    const vy = (tb * mc + td * md) * fontSize;
    const dir = snapDirection(bx, by);
    const upLength = Math.hypot(vx, vy);
    const size = upLength;
    if (dir === null || !(size > 0.5) || !Number.isFinite(x) || !Number.isFinite(y)) continue;
    const ux = Math.cos((dir * Math.PI) / 180);
    const uy = Math.sin((dir * Math.PI) / 180);
    const a0 = (box.x0 - x) * ux + (box.y0 - y) * uy;
    const a1 = (box.x1 - x) * ux + (box.y1 - y) * uy;
    open = {
      text: char,
      dir,
      size,
      fontSize,
      font: fontOf(index),
      ox: x,
      oy: y,
      ux,
      uy,
      upx: vx / upLength,
      upy: vy / upLength,
      start: 0,
      end: Math.max(0, a0, a1),
      last: 0,
    };
  }
  close();
  return { words: joinLetterSpacedWords(joinTouchingWords(words, spaced)), charCount };
};

/** A word's extent along its reading direction and its baseline band across it (a frame where it reads left to right). */
const frameOf = (word: Word): { start: number; end: number; top: number; bottom: number } => {
  switch (word.dir) {
    case 0:
      return { start: word.x0, end: word.x1, top: word.y0, bottom: word.y1 };
    case 90:
      return { start: word.y0, end: word.y1, top: -word.x1, bottom: -word.x0 };
    case 180:
      return { start: -word.x1, end: -word.x0, top: -word.y1, bottom: -word.y0 };
    case 270:
      return { start: -word.y1, end: -word.y0, top: word.x0, bottom: word.x1 };
  }
};

/** Gap (in font sizes) within which two pieces on one baseline are one word; pdf.js joined such pieces into one item. */
const TOUCHING_GAP = 0.1;

/**
 * Joins words that continue one another on the same baseline with no gap between them, in the same size:
 * PDFium puts the characters in the order they are drawn, and a title block drawn field by field puts a
 * space between `SW-G` and the `1` drawn after other fields right after it (2977J p28). pdf.js, which joined
 * pieces that touch, read `SW-G1`.
 */
export const joinTouchingWords = (
  words: readonly Word[],
  /**
   * Whether each word ends at a space of the file's own: such a word takes no piece after it (a condensed
   * font's glyphs reach over the space: `PW VARIOUS` of a 1243I header would read `PWVARIOUS`). Where the
   * piece after it was drawn next does not matter: the `1` of `SW-G1` follows a space after another field.
   */
  spaced: ReadonlyArray<{ after: boolean }> = [],
): Word[] => {
  const framed = words.map((word) => ({ word, frame: frameOf(word) }));
  // Pieces by direction and baseline band (2-point buckets; a piece is looked for in its bucket and the two
  // beside it).
  const bucketOf = (dir: number, top: number): string => `${dir}:${Math.round(top / 2)}`;
  const buckets = new Map<string, number[]>();
  framed.forEach(({ word, frame }, index) => {
    const key = bucketOf(word.dir, frame.top);
    const list = buckets.get(key);
    if (list) list.push(index);
    else buckets.set(key, [index]);
  });
  const joined = new Set<number>();
  const out: Word[] = [];
  framed.forEach((first, index) => {
    if (joined.has(index)) return;
    let { word, frame } = first;
    let last = index;
    while (!spaced[last]?.after) {
      const size = word.size;
      const band = Math.round(frame.top / 2);
      let next: number | undefined;
      for (let key = band - 1; key <= band + 1 && next === undefined; key++) {
        next = buckets.get(`${word.dir}:${key}`)?.find((other) => {
          if (other === index || joined.has(other)) return false;
          const candidate = framed[other];
          if (!candidate) return false;
          const gap = candidate.frame.start - frame.end;
          return (
            gap > -TOUCHING_GAP * size &&
            gap < TOUCHING_GAP * size &&
            Math.abs(candidate.word.size - size) <= 0.02 * size &&
            Math.abs(candidate.frame.top - frame.top) < 0.1 * size &&
            Math.abs(candidate.frame.bottom - frame.bottom) < 0.1 * size
          );
        });
      }
      const piece = next === undefined ? undefined : framed[next];
      if (next === undefined || !piece) break;
      joined.add(next);
      last = next;
      word = {
        ...word,
        text: word.text + piece.word.text,
        x0: Math.min(word.x0, piece.word.x0),
        y0: Math.min(word.y0, piece.word.y0),
        x1: Math.max(word.x1, piece.word.x1),
        y1: Math.max(word.y1, piece.word.y1),
      };
      frame = frameOf(word);
    }
    out.push(word);
  });
  return out;
};

const LETTER_OR_DIGIT_RE = /[\p{L}\p{N}]/u;

/**
 * Letters and digits in a piece of text (separators and punctuation do not count), counted up to `most` + 1:
 * every word of a page passes here, so ASCII is tested by its code and the count stops once past `most`.
 */
const lettersIn = (text: string, most = Number.POSITIVE_INFINITY): number => {
  let count = 0;
  for (const char of text) {
    const code = char.charCodeAt(0);
    const folded = code | 32;
    const counts =
      code < 128
        ? (code >= 48 && code <= 57) || (folded >= 97 && folded <= 122)
        : LETTER_OR_DIGIT_RE.test(char);
    if (counts && ++count > most) return count;
  }
  return count;
};

/** Letter spacing is at most this share of the font size: a word space is wider (about a quarter of it). */
const MAX_LETTER_GAP = 0.22;
/** Pieces further apart than this (in font sizes) are not one run of spaced lettering. */
const MAX_RUN_GAP = 0.8;
/** Fewest pieces of one or two characters that make a run of spaced lettering. */
const MIN_RUN_PIECES = 4;

/**
 * Joins lettering printed with its letters spaced out (title-block labels and values drawn with character
 * spacing: `D R A W IN G  T IT LE`, `4 9 7 7 _S _ D E 0 3`). PDFium puts a space in every gap, so each letter is
 * a word. A run of at least four pieces, at least half of them single letters, on one baseline, in one size, whose gaps
 * are mostly one narrow letter spacing, is cut into words where a gap is clearly wider than that spacing (the
 * word spaces of spaced lettering); each part becomes one word. Pieces a word space apart (`3 @ 12`) are not
 * joined: their gaps are wider than any letter spacing.
 */
export const joinLetterSpacedWords = (words: readonly Word[]): Word[] => {
  // Pieces of up to four letters or digits (PDFium keeps some letters of spaced lettering together: `IN`,
  // `4977`; separators do not count: `_S_`), by direction, size and baseline band (within a third of the size).
  const short = words
    .flatMap((word, index) => (lettersIn(word.text, 4) <= 4 ? [{ word, frame: frameOf(word), index }] : []))
    .sort(
      (first, second) =>
        first.word.dir - second.word.dir ||
        first.word.size - second.word.size ||
        first.frame.bottom - second.frame.bottom,
    );
  const bands: Array<typeof short> = [];
  for (const piece of short) {
    const band = bands[bands.length - 1];
    const head = band?.[0];
    if (
      band &&
      head &&
      head.word.dir === piece.word.dir &&
      Math.abs(head.word.size - piece.word.size) <= 0.05 * piece.word.size &&
      Math.abs(head.frame.bottom - piece.frame.bottom) <= piece.word.size / 3
    )
      band.push(piece);
    else bands.push([piece]);
  }
  const replaced = new Map<number, Word | null>();
  for (const band of bands) {
    if (band.length < MIN_RUN_PIECES) continue;
    band.sort((first, second) => first.frame.start - second.frame.start);
    let run: typeof band = [];
    const flush = (): void => {
      if (run.length >= MIN_RUN_PIECES) joinRun(run, replaced);
      run = [];
    };
    for (const piece of band) {
      const previous = run[run.length - 1];
      const gap = previous ? piece.frame.start - previous.frame.end : 0;
      if (previous && (gap < 0 || gap > MAX_RUN_GAP * piece.word.size)) flush();
      run.push(piece);
    }
    flush();
  }
  if (replaced.size === 0) return [...words];
  return words.flatMap((word, index) => {
    const replacement = replaced.get(index);
    if (replacement === undefined) return [word];
    return replacement ? [replacement] : [];
  });
};

/** One run of spaced pieces cut at its word spaces; `replaced` gets each part's word (at its first piece). */
const joinRun = (
  run: ReadonlyArray<{ word: Word; frame: { start: number; end: number }; index: number }>,
  replaced: Map<number, Word | null>,
): void => {
  const size = run[0]?.word.size ?? 0;
  const gaps = run.slice(1).map((piece, position) => piece.frame.start - (run[position]?.frame.end ?? 0));
  const sorted = [...gaps].sort((first, second) => first - second);
  const letterGap = sorted[Math.floor((sorted.length - 1) / 2)] ?? 0;
  if (letterGap > MAX_LETTER_GAP * size) return;
  // Mostly single letters: pieces of words set close together (`PLAN - AREA OF WORK A & B` in a condensed
  // font) are not spaced lettering.
  const lettered = run.filter((piece) => lettersIn(piece.word.text) > 0);
  if (lettered.filter((piece) => lettersIn(piece.word.text) === 1).length < 0.5 * lettered.length) return;
  // Mostly one spacing: most gaps are within half again of the median.
  if (gaps.filter((gap) => gap <= 1.5 * letterGap + 0.02 * size).length < 0.6 * gaps.length) return;
  const wordSpace = Math.max(2 * letterGap, letterGap + 0.12 * size);
  let part = [run[0]];
  const close = (): void => {
    if (part.length > 1) {
      const words = part.flatMap((piece) => (piece ? [piece.word] : []));
      const first = part[0];
      if (!first) return;
      replaced.set(first.index, {
        ...first.word,
        text: words.map((word) => word.text).join(''),
        x0: Math.min(...words.map((word) => word.x0)),
        y0: Math.min(...words.map((word) => word.y0)),
        x1: Math.max(...words.map((word) => word.x1)),
        y1: Math.max(...words.map((word) => word.y1)),
      });
      for (const piece of part.slice(1)) if (piece) replaced.set(piece.index, null);
    }
  };
  run.slice(1).forEach((piece, position) => {
    if ((gaps[position] ?? 0) > wordSpace) {
      close();
      part = [];
    }
    part.push(piece);
  });
  close();
};
