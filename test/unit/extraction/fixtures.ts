/**
 * PDFs generated at test time with pdf-lib: spec books, drawing sheets, broken files.
 * Coordinates given to helpers are display coordinates (top-left origin), converted to PDF space here.
 */
import { deflateSync } from 'node:zlib';
import { createCanvas } from '@napi-rs/canvas';
import { degrees, PDFDocument, type PDFFont, type PDFPage, StandardFonts } from 'pdf-lib';
import type { Word } from '../../../functions/engine/geometry.ts';
import type { Region, Sheet } from '../../../functions/engine/model.ts';

export interface TextSpec {
  text: string;
  /** Left edge, display points. */
  x: number;
  /** Top of the text line, display points. */
  top: number;
  size?: number;
}

export const LETTER: [number, number] = [612, 792];
export const ARCH_D: [number, number] = [2592, 1728];

/** Draws text whose top-left is at (x, top) on an unrotated page. */
export const drawAt = (page: PDFPage, font: PDFFont, spec: TextSpec): void => {
  const size = spec.size ?? 10;
  const { height } = page.getSize();
  page.drawText(spec.text, { x: spec.x, y: height - spec.top - size * 0.8, size, font });
};

export const centered = (page: PDFPage, font: PDFFont, text: string, top: number, size = 10): void => {
  const w = font.widthOfTextAtSize(text, size);
  drawAt(page, font, { text, x: (page.getSize().width - w) / 2, top, size });
};

export interface SpecPage {
  lines: Array<string | { text: string; indent?: number; center?: boolean; size?: number }>;
  footer?: string;
  header?: string;
}

/** A spec book: one letter page per entry, lines flowing from the top margin, optional header/footer. */
export const buildSpecBook = async (pages: SpecPage[]): Promise<Uint8Array> => {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (const spec of pages) {
    const page = doc.addPage(LETTER);
    if (spec.header) drawAt(page, font, { text: spec.header, x: 72, top: 36, size: 9 });
    let top = 72;
    for (const entry of spec.lines) {
      const line = typeof entry === 'string' ? { text: entry } : entry;
      if (line.text === '') {
        top += 12;
        continue;
      }
      const size = line.size ?? 10;
      if (line.center) centered(page, font, line.text, top, size);
      else drawAt(page, font, { text: line.text, x: 72 + (line.indent ?? 0), top, size });
      top += Math.max(14, size * 1.4);
    }
    if (spec.footer) centered(page, font, spec.footer, 750, 9);
  }
  return doc.save();
};

/** Body lines of filler text (numbered paragraphs). */
export const paragraphs = (count: number, prefix = 'The Contractor shall provide'): string[] =>
  Array.from(
    { length: count },
    (_, i) => `${String.fromCharCode(65 + (i % 26))}. ${prefix} item ${i + 1} as specified herein.`,
  );

export interface SheetOptions {
  number: string;
  title: string;
  project?: string;
  rotate?: 0 | 90;
  /** Draw the title block text as an image (no text layer), like an outlined or scanned sheet. */
  imageTitleBlock?: boolean;
  extras?: (page: PDFPage, font: PDFFont, bold: PDFFont) => void;
}

/**
 * An ARCH D sheet (36 x 24 in) with a ruled title block in the bottom-right corner: project name, a
 * SHEET TITLE label and title, a SHEET NO. label and the number.
 */
export const addSheet = async (doc: PDFDocument, options: SheetOptions): Promise<PDFPage> => {
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  const [W, H] = ARCH_D;
  const page = doc.addPage([W, H]);
  const line = (x0: number, y0: number, x1: number, y1: number, thickness = 2): void =>
    page.drawLine({ start: { x: x0, y: H - y0 }, end: { x: x1, y: H - y1 }, thickness });
  // Border and title block (x 2200..2560, y 1300..1700 in display space).
  line(30, 30, W - 30, 30);
  line(30, H - 30, W - 30, H - 30);
  line(30, 30, 30, H - 30);
  line(W - 30, 30, W - 30, H - 30);
  line(2200, 1300, W - 30, 1300);
  line(2200, 1300, 2200, H - 30);
  line(2200, 1420, W - 30, 1420);
  line(2200, 1560, W - 30, 1560);
  if (options.imageTitleBlock) {
    const png = renderTextImage(
      [
        { text: options.project ?? 'RIVERSIDE LIBRARY RENOVATION', size: 26 },
        { text: 'SHEET TITLE', size: 18 },
        { text: options.title, size: 34 },
        { text: 'SHEET NO.', size: 18 },
        { text: options.number, size: 90 },
      ],
      340,
      380,
    );
    const image = await doc.embedPng(png);
    page.drawImage(image, { x: 2210, y: H - 1690, width: 340, height: 380 });
  } else {
    drawAt(page, bold, {
      text: options.project ?? 'RIVERSIDE LIBRARY RENOVATION',
      x: 2215,
      top: 1330,
      size: 16,
    });
    drawAt(page, font, { text: '1200 MAIN STREET, SPRINGFIELD', x: 2215, top: 1360, size: 10 });
    drawAt(page, font, { text: 'SHEET TITLE', x: 2215, top: 1430, size: 8 });
    drawAt(page, bold, { text: options.title, x: 2215, top: 1450, size: 20 });
    drawAt(page, font, { text: 'DATE: 03/14/2024', x: 2215, top: 1530, size: 9 });
    drawAt(page, font, { text: 'SHEET NO.', x: 2215, top: 1570, size: 8 });
    drawAt(page, bold, { text: options.number, x: 2300, top: 1600, size: 60 });
  }
  options.extras?.(page, font, bold);
  if (options.rotate) page.setRotation(degrees(options.rotate));
  return page;
};

/** Black text on white, as a PNG: for image-only (OCR) title blocks. */
export const renderTextImage = (
  lines: Array<{ text: string; size: number }>,
  widthPt: number,
  heightPt: number,
): Buffer => {
  const scale = 300 / 72;
  const canvas = createCanvas(Math.round(widthPt * scale), Math.round(heightPt * scale));
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = '#ffffff';
  ctx.fillRect(0, 0, canvas.width, canvas.height);
  ctx.fillStyle = '#000000';
  let y = 10 * scale;
  for (const l of lines) {
    ctx.font = `bold ${Math.round(l.size * scale * 0.75)}px sans-serif`;
    y += l.size * scale * 0.85;
    ctx.fillText(l.text, 10 * scale, y);
    y += l.size * scale * 0.35;
  }
  return canvas.toBuffer('image/png');
};

/** A file that is a valid PDF with its xref and trailer cut off. */
export const truncate = (bytes: Uint8Array, keep = 0.4): Uint8Array =>
  bytes.slice(0, Math.floor(bytes.length * keep));

/**
 * A hand-written PDF encrypted with the Standard security handler; its user password is not empty, so it
 * cannot be opened without one.
 */
export const encryptedPdf = (): Uint8Array => {
  const objects = [
    '1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj',
    '2 0 obj << /Type /Pages /Kids [3 0 R] /Count 1 >> endobj',
    '3 0 obj << /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >> endobj',
    `4 0 obj << /Filter /Standard /V 1 /R 2 /O <${'ab'.repeat(32)}> /U <${'cd'.repeat(32)}> /P -4 >> endobj`,
  ];
  return assemble(
    objects,
    '/Root 1 0 R /Encrypt 4 0 R /ID [<0123456789abcdef0123456789abcdef> <0123456789abcdef0123456789abcdef>]',
  );
};

/** A one-page PDF whose /Pages tree claims `count` pages. */
export const hugePageCountPdf = (count: number): Uint8Array =>
  assemble(
    [
      '1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj',
      `2 0 obj << /Type /Pages /Kids [3 0 R] /Count ${count} >> endobj`,
      '3 0 obj << /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >> endobj',
    ],
    '/Root 1 0 R',
  );

/** A PDF with zero pages. */
export const zeroPagePdf = (): Uint8Array =>
  assemble(
    [
      '1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj',
      '2 0 obj << /Type /Pages /Kids [] /Count 0 >> endobj',
    ],
    '/Root 1 0 R',
  );

/** One page whose content stream is `inflatedBytes` of spaces compressed with Flate (a decompression bomb). */
export const bombPdf = (inflatedBytes: number): Uint8Array => {
  const data = deflateSync(Buffer.alloc(inflatedBytes, 0x20), { level: 9 });
  const head = [
    '1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj',
    '2 0 obj << /Type /Pages /Kids [3 0 R] /Count 1 >> endobj',
    '3 0 obj << /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R >> endobj',
  ];
  return assemble(head, '/Root 1 0 R', {
    header: `4 0 obj << /Length ${data.length} /Filter /FlateDecode >> stream\n`,
    data,
  });
};

const assemble = (
  objects: string[],
  trailer: string,
  stream?: { header: string; data: Buffer },
): Uint8Array => {
  const fileHeader = Buffer.from('%PDF-1.4\n%\xe2\xe3\xcf\xd3\n', 'latin1');
  const parts: Buffer[] = [fileHeader];
  const offsets: number[] = [];
  let length = fileHeader.length;
  for (const o of objects) {
    offsets.push(length);
    const b = Buffer.from(`${o}\n`, 'latin1');
    parts.push(b);
    length += b.length;
  }
  if (stream) {
    offsets.push(length);
    const b = Buffer.concat([
      Buffer.from(stream.header, 'latin1'),
      stream.data,
      Buffer.from('\nendstream endobj\n', 'latin1'),
    ]);
    parts.push(b);
    length += b.length;
  }
  const xref = [
    `xref\n0 ${offsets.length + 1}\n`,
    '0000000000 65535 f \n',
    ...offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`),
  ].join('');
  parts.push(
    Buffer.from(
      `${xref}trailer << /Size ${offsets.length + 1} ${trailer} >>\nstartxref\n${length}\n%%EOF\n`,
      'latin1',
    ),
  );
  return new Uint8Array(Buffer.concat(parts));
};

/** An assembled sheet (no number, title or text source unless given) holding `regions`. */
export const sheetFixture = (regions: Region[], overrides: Partial<Sheet> = {}): Sheet => ({
  pageNumber: 1,
  sheetNumber: null,
  sheetNumberNormalized: null,
  sheetTitle: null,
  discipline: null,
  revisions: [],
  pageSize: { width: 2448, height: 1584, name: null },
  sheetNumberBox: null,
  sheetTitleBox: null,
  textSource: 'none',
  confidence: 0,
  regions,
  ...overrides,
});

/** A text-layer word at display position (x0, y0), its width 0.6 of its size per character. */
export const wordAt = (
  text: string,
  x0: number,
  y0: number,
  size: number,
  extra: Partial<Word> = {},
): Word => ({
  text,
  x0,
  y0,
  x1: x0 + text.length * size * 0.6,
  y1: y0 + size,
  size,
  dir: 0,
  font: 'f',
  source: 'textLayer',
  confidence: null,
  ...extra,
});

/** The same word read by OCR, with 95 % confidence. */
export const ocrWordAt = (
  text: string,
  x0: number,
  y0: number,
  size: number,
  extra: Partial<Word> = {},
): Word => wordAt(text, x0, y0, size, { font: 'ocr', source: 'ocr', confidence: 95, ...extra });
