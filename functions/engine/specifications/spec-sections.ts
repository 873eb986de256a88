/**
 * Document-level assembly of specification sections and their facets from per-page evidence.
 *
 * Rules (general, not tuned to one book):
 * - A section starts at a page with a `SECTION NN NN NN` heading near the top, or — when no heading is
 *   printed — at a page whose footer names a section ("(Bid Form) 00 41 00 - 1") that is not the one just
 *   closed.
 * - It ends at the page with END OF SECTION, else before the next section start; trailing blank pages of a
 *   section without END OF SECTION are left out. A section found from footers also ends at the first page
 *   whose footer does not name it.
 * - A heading repeating the number of the open section (running headers) continues it. A footer naming
 *   another number on the heading page is recorded as an alias (a wrong footer), not as a new section.
 * - Table-of-contents lines are not headings (they lack the `SECTION` keyword at the top of a page, or are
 *   one of many such lines on a page).
 */
import { type Facet, MAX_FACET_TEXT, type SpecSection } from '../model.ts';
import { normalizeSectionNumber, SECTION_NUMBER } from './spec-numbers.ts';
import { matchArticle, matchPart, type SpecPageSignals, type TextLine } from './spec-signals.ts';

export interface SpecPageInput {
  pageNumber: number;
  height: number;
  /** Drawing sheets interrupt sections. */
  isSheet: boolean;
  lines: readonly TextLine[];
  spec: SpecPageSignals;
}

interface OpenSection {
  number: string;
  asPrinted: string;
  format: 'masterformat2004' | 'masterformat1995';
  title: string;
  appendix: string | null;
  start: number;
  end: number;
  ended: boolean;
  detectedFrom: 'heading' | 'footer';
  aliases: Set<string>;
  headingLine: number | null;
}

/** A section opened at `page`, not yet ended. */
const openSection = (
  number: Pick<OpenSection, 'number' | 'asPrinted' | 'format'>,
  title: string,
  page: number,
  detectedFrom: OpenSection['detectedFrom'],
  heading: Pick<OpenSection, 'appendix' | 'headingLine'> = { appendix: null, headingLine: null },
): OpenSection => ({
  number: number.number,
  asPrinted: number.asPrinted,
  format: number.format,
  title,
  ...heading,
  start: page,
  end: page,
  ended: false,
  detectedFrom,
  aliases: new Set(),
});

export const assembleSpecSections = (pages: readonly SpecPageInput[]): SpecSection[] => {
  const byNumber = new Map(pages.map((page) => [page.pageNumber, page]));
  const running = runningLineKeys(pages);
  const sections: SpecSection[] = [];
  let open: OpenSection | null = null;
  let lastClosed: OpenSection | null = null;

  const close = (section: OpenSection, lastPage: number): void => {
    let end = section.ended ? section.end : lastPage;
    if (!section.ended) {
      while (end > section.start && byNumber.get(end)?.spec.isBlank) end--;
    }
    section.end = Math.max(section.start, end);
    sections.push(buildSection(section, byNumber, running));
    lastClosed = section;
  };

  const openFromFooter = (page: SpecPageInput): OpenSection | null => {
    const footer = page.spec.footer;
    if (!footer || footer.appendix || page.spec.isBlank) return null;
    const title =
      footer.pageInSection === 1 && page.spec.topTitle
        ? page.spec.topTitle
        : (footer.title ?? page.spec.topTitle ?? '');
    return openSection(footer, title.replace(/\s+/g, ' ').trim(), page.pageNumber, 'footer');
  };

  const namesSection = (section: OpenSection | null, number: string): boolean =>
    section !== null && (section.number === number || section.aliases.has(number));

  for (const page of pages) {
    const signals = page.spec;
    if (page.isSheet) {
      if (open) close(open, page.pageNumber - 1);
      open = null;
      continue;
    }
    const heading = pickHeading(signals);
    if (heading) {
      const continues =
        open !== null &&
        !open.ended &&
        open.number === heading.number &&
        open.appendix === heading.appendix &&
        !(signals.footer && signals.footer.pageInSection === 1 && signals.footer.number === heading.number);
      if (!continues) {
        if (open) close(open, page.pageNumber - 1);
        open = openSection(heading, heading.title, page.pageNumber, 'heading', {
          appendix: heading.appendix,
          headingLine: heading.lineIndex,
        });
        if (signals.footer && signals.footer.number !== heading.number && !signals.footer.appendix)
          open.aliases.add(signals.footer.number);
      }
    } else if (open && !open.ended) {
      const footer = signals.footer;
      if (footer && !footer.appendix && !namesSection(open, footer.number)) {
        if (open.detectedFrom === 'footer' || footer.pageInSection === 1) {
          close(open, page.pageNumber - 1);
          open = openFromFooter(page);
        }
      } else if (!footer && open.detectedFrom === 'footer' && !signals.isBlank) {
        close(open, page.pageNumber - 1);
        open = null;
      }
    } else {
      if (open?.ended) {
        close(open, open.end);
        open = null;
      }
      const footer = signals.footer;
      if (footer && !namesSection(lastClosed, footer.number)) open = openFromFooter(page);
    }
    if (open && signals.endOfSection) {
      open.end = page.pageNumber;
      open.ended = true;
    } else if (open && !open.ended) {
      open.end = page.pageNumber;
    }
  }
  if (open) close(open, open.end);
  return [...sections, ...attachedSections(pages, sections, byNumber, running)].sort(
    (first, second) => first.pageStart - second.pageStart,
  );
};

/**
 * An addendum's item naming a section and what it changes: `Section 00300 (Bid Form), replace Page 4 of 4 with
 * an attached revised page`, `Section 09 91 23 (Interior Painting), revise paragraph 2.3.A`.
 */
const ADDENDUM_ITEM_RE = new RegExp(
  String.raw`\bSECTION\s+(${SECTION_NUMBER})\s*\(([^()]{3,80})\)\s*,?\s*(?:REPLACE|REVISE|ADD|DELETE|SUBSTITUTE)`,
  'gi',
);

/** Folded for comparison: uppercase, single spaces, letters and digits only. */
const fold = (text: string): string =>
  ` ${text
    .toUpperCase()
    .replace(/[^A-Z0-9]+/g, ' ')
    .trim()} `;

/**
 * Pages an addendum attaches for one of its items that print no section number of their own: a revised page of
 * a form whose footer names its file (`BID FORM.wpd  Page 4 of 4`), not the section. Such a page, in no section,
 * (not one of the addendum's own pages, which name every item) belongs to the item whose section it names by
 * title (the title's words in its text), if no section of that number was found; consecutive such pages make
 * one section.
 */
const attachedSections = (
  pages: readonly SpecPageInput[],
  found: readonly SpecSection[],
  byNumber: ReadonlyMap<number, SpecPageInput>,
  running: ReadonlySet<string>,
): SpecSection[] => {
  const items = new Map<string, { number: ReturnType<typeof normalizeSectionNumber>; title: string }>();
  // The addendum's own pages name the items; they are not what is attached.
  const itemPages = new Set<number>();
  for (const page of pages) {
    if (page.isSheet) continue;
    const text = page.lines.map((line) => line.text).join(' ');
    for (const match of text.matchAll(ADDENDUM_ITEM_RE)) {
      itemPages.add(page.pageNumber);
      const number = normalizeSectionNumber(match[1] ?? '');
      const title = (match[2] ?? '').replace(/\s+/g, ' ').trim();
      if (number && !items.has(number.normalized)) items.set(number.normalized, { number, title });
    }
  }
  const numbered = new Set(found.map((section) => section.sectionNumber));
  const covered = (pageNumber: number): boolean =>
    found.some((section) => section.pageStart <= pageNumber && pageNumber <= section.pageEnd);
  const out: SpecSection[] = [];
  let open: OpenSection | null = null;
  const close = (): void => {
    if (open) out.push(buildSection(open, byNumber, running));
    open = null;
  };
  for (const page of pages) {
    const text = fold(page.lines.map((line) => line.text).join(' '));
    const item =
      page.isSheet || page.spec.isBlank || itemPages.has(page.pageNumber) || covered(page.pageNumber)
        ? undefined
        : [...items.values()].find(
            (candidate) =>
              candidate.number !== null &&
              !numbered.has(candidate.number.normalized) &&
              fold(candidate.title).trim().length >= 3 &&
              text.includes(fold(candidate.title)),
          );
    const current: OpenSection | null = open;
    if (current && item?.number?.normalized === current.number && current.end === page.pageNumber - 1) {
      current.end = page.pageNumber;
      continue;
    }
    close();
    if (!item?.number) continue;
    open = openSection(
      { number: item.number.normalized, asPrinted: item.number.asPrinted, format: item.number.format },
      item.title,
      page.pageNumber,
      'footer',
    );
  }
  close();
  return out;
};

const pickHeading = (signals: SpecPageSignals) => {
  const first = signals.headings[0];
  if (!first) return null;
  // Many SECTION lines on a page: a list (table of contents, checklist). Only a heading on the first
  // lines of the page counts then.
  if (signals.headings.length >= 3 && first.lineIndex > 3) return null;
  return first;
};

/** Keys of header/footer lines that repeat on several pages (text with digits folded), per zone. */
const runningLineKeys = (pages: readonly SpecPageInput[]): Set<string> => {
  const counts = new Map<string, number>();
  for (const page of pages) {
    const seen = new Set<string>();
    for (const line of page.lines) {
      const key = zoneKey(line, page.height);
      if (key && !seen.has(key)) {
        seen.add(key);
        counts.set(key, (counts.get(key) ?? 0) + 1);
      }
    }
  }
  const running = new Set<string>();
  for (const [key, count] of counts) if (count >= 3) running.add(key);
  return running;
};

const zoneKey = (line: TextLine, height: number): string | null => {
  const zone = line.y1 <= height * 0.085 ? 'h' : line.y0 >= height * 0.88 ? 'f' : null;
  if (!zone) return null;
  return `${zone}:${line.text.replace(/\d+/g, '#').replace(/\s+/g, ' ').trim().toLowerCase()}`;
};

interface SectionLine {
  text: string;
  page: number;
}

const END_LINE_RE = /^[-–—_*\s]*END\s+OF\s+(?:SECTION|DOCUMENT)\b/i;

const sectionLines = (
  section: OpenSection,
  byNumber: ReadonlyMap<number, SpecPageInput>,
  running: ReadonlySet<string>,
): SectionLine[] => {
  const out: SectionLine[] = [];
  for (let pageNumber = section.start; pageNumber <= section.end; pageNumber++) {
    const page = byNumber.get(pageNumber);
    if (!page) continue;
    const startIndex = pageNumber === section.start && section.headingLine !== null ? section.headingLine : 0;
    for (let i = startIndex; i < page.lines.length; i++) {
      const line = page.lines[i];
      if (!line) continue;
      const key = zoneKey(line, page.height);
      if (key && running.has(key)) continue;
      out.push({ text: line.text, page: pageNumber });
      if (pageNumber === section.end && END_LINE_RE.test(line.text)) break;
    }
  }
  return out;
};

const buildSection = (
  section: OpenSection,
  byNumber: ReadonlyMap<number, SpecPageInput>,
  running: ReadonlySet<string>,
): SpecSection => {
  const lines = sectionLines(section, byNumber, running);
  const text = lines.map((line) => line.text).join('\n');
  return {
    sectionNumber: section.number,
    sectionNumberAsPrinted: section.asPrinted,
    numberFormat: section.format,
    sectionTitle: section.title,
    pageStart: section.start,
    pageEnd: section.end,
    detectedFrom: section.detectedFrom,
    endOfSectionPrinted: section.ended,
    appendix: section.appendix,
    isTableOfContents: /\bCONTENTS\b/i.test(section.title),
    textLength: text.length,
    facets: buildFacets(section, lines),
  };
};

interface FacetDraft {
  key: string;
  kind: Facet['facetKind'];
  label: string;
  lines: SectionLine[];
}

const buildFacets = (section: OpenSection, lines: readonly SectionLine[]): Facet[] => {
  const parts: FacetDraft[] = [];
  const articles: FacetDraft[] = [];
  let part: FacetDraft | null = null;
  let article: FacetDraft | null = null;
  const usedKeys = new Set<string>();
  const uniqueKey = (key: string): string => {
    let unique = key;
    for (let copy = 2; usedKeys.has(unique); copy++) unique = `${key}.dup-${copy}`;
    usedKeys.add(unique);
    return unique;
  };
  for (const line of lines) {
    const text = line.text.trim();
    const pm = matchPart(text);
    if (pm) {
      part = {
        key: uniqueKey(`part-${romanToArabic(pm.number)}`),
        kind: 'part',
        label: text.replace(/\s+/g, ' '),
        lines: [],
      };
      parts.push(part);
      article = null;
    } else {
      const am = matchArticle(text);
      if (am) {
        const base = `article-${am.number}`;
        article = {
          key: uniqueKey(part ? `${part.key}.${base}` : base),
          kind: 'article',
          label: `${am.number} ${am.title}`.replace(/\s+/g, ' '),
          lines: [],
        };
        articles.push(article);
      }
    }
    part?.lines.push(line);
    article?.lines.push(line);
  }
  const drafts: FacetDraft[] = [];
  if (parts.length === 0) {
    drafts.push({
      key: 'section',
      kind: 'section',
      label: `${section.number}${section.appendix ? ` ${section.appendix}` : ''} ${section.title}`.trim(),
      lines: [...lines],
    });
  }
  drafts.push(...parts, ...articles);
  return drafts.flatMap(toFacets);
};

const romanToArabic = (numeral: string): string => {
  if (/^\d+$/.test(numeral)) return String(Number(numeral));
  const values: Record<string, number> = { I: 1, V: 5, X: 10 };
  let total = 0;
  for (let i = 0; i < numeral.length; i++) {
    const value = values[numeral.charAt(i)] ?? 0;
    const next = values[numeral[i + 1] ?? ''] ?? 0;
    total += value < next ? -value : value;
  }
  return String(total);
};

/** One facet, or several `partial` chunks when the text exceeds MAX_FACET_TEXT (split at line ends). */
const toFacets = (draft: FacetDraft): Facet[] => {
  if (draft.lines.length === 0) return [];
  const chunks: SectionLine[][] = [];
  let current: SectionLine[] = [];
  let length = 0;
  for (const line of draft.lines) {
    const text = line.text.length > MAX_FACET_TEXT ? line.text.slice(0, MAX_FACET_TEXT) : line.text;
    const add = text.length + (current.length ? 1 : 0);
    if (length + add > MAX_FACET_TEXT && current.length) {
      chunks.push(current);
      current = [];
      length = 0;
    }
    current.push({ text, page: line.page });
    length += text.length + (current.length > 1 ? 1 : 0);
  }
  if (current.length) chunks.push(current);
  return chunks.map((chunk, index) => ({
    facetKey: chunks.length > 1 ? `${draft.key}.chunk-${index + 1}` : draft.key,
    facetKind: draft.kind,
    facetLabel: chunks.length > 1 ? `${draft.label} (${index + 1}/${chunks.length})` : draft.label,
    coverageKind: chunks.length > 1 ? 'partial' : 'full',
    facetText: chunk.map((line) => line.text).join('\n'),
    pageStart: Math.min(...chunk.map((line) => line.page)),
    pageEnd: Math.max(...chunk.map((line) => line.page)),
  }));
};
