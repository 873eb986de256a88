/**
 * Per-page evidence for specification sections: SECTION headings, END OF SECTION lines, page footers naming
 * a section ("09 29 00 - 3"), PART and article headings, blank pages. The document-level assembly
 * (spec-sections.ts) turns this evidence into sections.
 */
import { normalizeSectionNumber, SECTION_NUMBER, SECTION_NUMBER_2004 } from './spec-numbers.ts';

/** A line of text kept per page for the spec assembly (horizontal text only). */
export interface TextLine {
  text: string;
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  size: number;
}

export interface SectionHeading {
  number: string;
  asPrinted: string;
  format: 'masterformat2004' | 'masterformat1995';
  appendix: string | null;
  title: string;
  /** Index into the page's lines of the heading line. */
  lineIndex: number;
}

export interface SectionFooter {
  number: string;
  asPrinted: string;
  format: 'masterformat2004' | 'masterformat1995';
  appendix: string | null;
  pageInSection: number;
  /** Title printed next to the number in the footer, e.g. `(Site Clearing)` or `Instructions to Bidders`. */
  title: string | null;
}

export interface SpecPageSignals {
  headings: SectionHeading[];
  footer: SectionFooter | null;
  endOfSection: boolean;
  /** Lines that look like a table of contents entry (`09 29 00  GYPSUM BOARD`). */
  tocEntryCount: number;
  partCount: number;
  articleCount: number;
  isBlank: boolean;
  /** A centered uppercase first line, used as the title of sections found from footers. */
  topTitle: string | null;
}

/**
 * The words CSI documents use for a part printed after its parent section under the parent's number
 * (`SECTION 00 21 13 APPENDIX A`, `DOCUMENT 00 73 00 EXHIBIT B`, footer `00 73 00 Attachment 2 - 1`).
 */
const APPENDIX_WORD = '(?:APPENDIX|EXHIBIT|ATTACHMENT|ANNEX|SUPPLEMENT)';

const HEADING_RE = new RegExp(
  String.raw`^(?:SECTION|DOCUMENT)\s+(${SECTION_NUMBER})(?!\d|\s*[-–—]\s*\d)(?:\s*[-–—:]?\s*(${APPENDIX_WORD}\s+[A-Z0-9]{1,3})\b)?(?:\s*[-–—:]\s*(.+)|\s+([A-Z(].*))?$`,
);
const END_RE = new RegExp(
  String.raw`^[-–—_*\s]*END\s+OF\s+(?:SECTION|DOCUMENT)\b(?:\s+(?:${SECTION_NUMBER}))?[-–—_*\s.]*$`,
  'i',
);
const FOOTER_RE = new RegExp(
  String.raw`(?:^|[\s)\]])(${SECTION_NUMBER_2004}|\d{5})(\s+${APPENDIX_WORD}\s+[A-Z0-9]{1,3})?\s*[-–—]\s*(\d{1,3})(?![\d/.])`,
  'i',
);
const TOC_ENTRY_RE = new RegExp(String.raw`^(?:SECTION\s+)?(${SECTION_NUMBER_2004})\s*[-–—]?\s+[A-Za-z]`);
export const PART_RE = /^PART\s+(\d{1,2}|[IVX]{1,4})\b\s*[-–—−:.]?\s*(.*)$/;
export const ARTICLE_RE = /^(\d{1,2}\.\d{1,2})\.?\s+(.+)$/;
const BLANK_RE = /intentionally\s+(?:been\s+)?(?:left\s+)?blank|left\s+blank\s+intentionally|^blank\s+page$/i;

export const isMostlyUpper = (text: string, threshold = 0.8): boolean => {
  const letters = text.replace(/[^A-Za-z]/g, '');
  if (letters.length < 2) return false;
  const upper = letters.replace(/[^A-Z]/g, '').length;
  return upper / letters.length >= threshold;
};

/** An article heading line: `1.4 SUBMITTALS`, `2.01 MANUFACTURERS:` (uppercase title). */
export const matchArticle = (text: string): { number: string; title: string } | null => {
  const match = ARTICLE_RE.exec(text);
  if (!match) return null;
  const rest = match[2] ?? '';
  const title = (rest.split(/:|\s[-–—]\s|\.\s/)[0] ?? '').trim();
  if (title.length < 3 || !isMostlyUpper(title, 0.9)) return null;
  return { number: match[1] ?? '', title };
};

export const matchPart = (text: string): { number: string; title: string } | null => {
  const match = PART_RE.exec(text);
  if (!match) return null;
  const title = (match[2] ?? '').trim();
  if (title && !isMostlyUpper(title.replace(/\(.*?\)/g, ''), 0.7)) return null;
  return { number: match[1] ?? '', title };
};

/** `Section 09 91 23 - Painting`: accepted only as a short centered line (body text mentions sections too). */
const titleCaseHeading = (line: TextLine, width: number): RegExpExecArray | null => {
  const short = line.x1 - line.x0 < width * 0.6;
  const centered = Math.abs((line.x0 + line.x1) / 2 - width / 2) < width * 0.08;
  const text = line.text.trim();
  // A heading, not a sentence that happens to start with "Section 01 55 26".
  if (!short || !centered || text.length > 70 || /[.;,]\s+\S/.test(text)) return null;
  return HEADING_RE.exec(text.replace(/^(section|document)\b/i, (keyword) => keyword.toUpperCase()));
};

const isParenthetical = (text: string): boolean => /^\(.*\)$/.test(text.trim());

/**
 * Computes the evidence for one page. `lines` are in reading order (top to bottom); `height`/`width` are the
 * displayed page size.
 */
export const specSignals = (lines: readonly TextLine[], width: number, height: number): SpecPageSignals => {
  const topZone = height * 0.42;
  const headerZone = height * 0.085;
  const footerZone = height * 0.86;
  const headings: SectionHeading[] = [];
  let endOfSection = false;
  let tocEntryCount = 0;
  let partCount = 0;
  let articleCount = 0;
  let footer: SectionFooter | null = null;
  const bodyLines = lines.filter((line) => line.y0 > headerZone && line.y1 < footerZone);

  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (!line) continue;
    const text = line.text.trim();
    if (TOC_ENTRY_RE.test(text)) tocEntryCount++;
    if (END_RE.test(text)) endOfSection = true;
    if (matchPart(text)) partCount++;
    else if (matchArticle(text)) articleCount++;
    const hm = HEADING_RE.exec(text) ?? titleCaseHeading(line, width);
    if (hm && line.y0 < topZone) {
      const parsed = normalizeSectionNumber(hm[1] ?? '');
      if (parsed) {
        const sameLineTitle = (hm[3] ?? hm[4] ?? '').trim();
        headings.push({
          number: parsed.normalized,
          asPrinted: parsed.asPrinted,
          format: parsed.format,
          appendix: hm[2] ? hm[2].replace(/\s+/g, ' ').toUpperCase() : null,
          title:
            sameLineTitle && !isParenthetical(sameLineTitle) ? sameLineTitle : headingTitle(lines, i, width),
          lineIndex: i,
        });
      }
    }
  }
  // Footers (and running headers carrying the number with a page number), bottom zone first.
  const zoneLines = [
    ...lines.filter((line) => line.y0 >= footerZone).reverse(),
    ...lines.filter((line) => line.y1 <= headerZone),
  ];
  for (const line of zoneLines) {
    const fm = FOOTER_RE.exec(line.text);
    if (!fm) continue;
    const parsed = normalizeSectionNumber(fm[1] ?? '');
    if (!parsed) continue;
    footer = {
      number: parsed.normalized,
      asPrinted: parsed.asPrinted,
      format: parsed.format,
      appendix: fm[2] ? fm[2].trim().replace(/\s+/g, ' ').toUpperCase() : null,
      pageInSection: Number(fm[3]),
      title: footerTitle(line, lines, fm.index, fm[0]),
    };
    break;
  }
  const bodyText = bodyLines.map((line) => line.text).join(' ');
  const isBlank =
    bodyText.replace(/\s+/g, '').length < 12 ||
    (BLANK_RE.test(bodyText) && bodyText.replace(/\s+/g, '').length < 120);
  const first = bodyLines[0];
  const topTitle =
    first &&
    first.y0 < height * 0.25 &&
    isMostlyUpper(first.text, 0.9) &&
    Math.abs((first.x0 + first.x1) / 2 - width / 2) < width * 0.08 &&
    !HEADING_RE.test(first.text)
      ? first.text.trim()
      : null;
  return { headings, footer, endOfSection, tocEntryCount, partCount, articleCount, isBlank, topTitle };
};

/**
 * A line that is not part of a heading's title: a table-of-contents entry (`09 29 00  GYPSUM BOARD`, a dot
 * leader) or, after a first title line, the TABLE OF CONTENTS heading; another SECTION/DOCUMENT heading; an
 * END OF SECTION line.
 */
const endsTitle = (text: string, afterTitleLine: boolean): boolean =>
  (afterTitleLine && /^(?:TABLE\s+OF\s+CONTENTS|CONTENTS)$/i.test(text)) ||
  TOC_ENTRY_RE.test(text) ||
  HEADING_RE.test(text) ||
  END_RE.test(text) ||
  /\.{4,}/.test(text);

/** Title lines after a SECTION heading: skip parenthetical lines before the title, stop at body text. */
const headingTitle = (lines: readonly TextLine[], headingIndex: number, width: number): string => {
  const heading = lines[headingIndex];
  if (!heading) return '';
  const headingCentered = Math.abs((heading.x0 + heading.x1) / 2 - width / 2) < width * 0.12;
  const parts: string[] = [];
  const titleLines: TextLine[] = [];
  let prev = heading;
  for (let i = headingIndex + 1; i < lines.length && parts.length < 4; i++) {
    const line = lines[i];
    const text = line?.text.trim();
    if (!line || !text) continue;
    // Lines on the same row as the heading (e.g. a right-aligned label) are not the title.
    if (line.y0 < heading.y1 - 1) continue;
    const gap = line.y0 - prev.y1;
    const maxGap = parts.length === 0 ? 3.2 * heading.size : 1.6 * line.size;
    if (gap > maxGap) break;
    if (isParenthetical(text)) {
      if (parts.length > 0) break;
      prev = line;
      continue;
    }
    if (matchPart(text) || matchArticle(text) || /^(?:\d+|[A-Z])[.)]\s/.test(text)) break;
    // The title ends where a table of contents, the next heading or a running list begins.
    if (endsTitle(text, parts.length > 0)) break;
    const centered = Math.abs((line.x0 + line.x1) / 2 - width / 2) < width * 0.12;
    if (!isMostlyUpper(text, 0.85) && !(parts.length === 0 && centered)) {
      // A side label (logo text, running header fragment) next to the title: skip it, keep looking.
      if (parts.length === 0 && !centered && headingCentered) continue;
      break;
    }
    if (parts.length > 0) {
      // A continuation line keeps the title's alignment (centered under a centered heading, else flush)
      // and its size: a line in another size under the title is a subtitle, a note or the next heading.
      const first = titleLines[0] ?? line;
      const aligned = headingCentered ? centered : Math.abs(line.x0 - first.x0) < 6;
      const sameSize = Math.abs(line.size - first.size) <= 0.15 * first.size;
      if (!aligned || !sameSize || /^\d/.test(text)) break;
    }
    titleLines.push(line);
    parts.push(text);
    prev = line;
  }
  return parts.join(' ').replace(/\s+/g, ' ').trim();
};

/** The section title printed in a footer: `(Site Clearing) 31 10 00 - 2` or `00 21 13 - 1   Instructions to Bidders`. */
const footerTitle = (
  line: TextLine,
  lines: readonly TextLine[],
  at: number,
  matched: string,
): string | null => {
  const before = line.text.slice(0, at + (matched.startsWith(' ') || matched.startsWith(')') ? 1 : 0)).trim();
  const paren = /\(([^()]{3,})\)\s*$/.exec(before);
  if (paren) return (paren[1] ?? '').trim();
  const plainBefore = before.replace(/^.*[\\/]/, '').trim();
  if (/^[A-Za-z][A-Za-z ,&'’-]{2,}$/.test(plainBefore)) return plainBefore;
  const after = line.text.slice(at + matched.length).trim();
  if (after.length >= 3 && /[A-Za-z]{3}/.test(after)) return after;
  // A separate line segment on the same row, to the right of the number.
  const sameRow = lines.filter(
    (other) =>
      other !== line &&
      Math.abs((other.y0 + other.y1) / 2 - (line.y0 + line.y1) / 2) < line.size * 0.6 &&
      other.x0 > line.x1,
  );
  const right = sameRow.sort((a, b) => a.x0 - b.x0)[0];
  if (right && /[A-Za-z]{3}/.test(right.text)) return right.text.trim();
  return null;
};
