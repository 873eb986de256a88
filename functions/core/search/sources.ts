import { tableColumnNames } from '../../engine/drawings/tables.ts';
import type { DisplayBox } from '../../engine/index.ts';
import type { FacetRecord, RegionRecord, SpecSectionRecord } from '../content/model.ts';

/**
 * Sources are the searchable units of a project; passages are the pieces of a source that the index
 * holds. Every passage keeps its page (and, for regions and document pages, its box), so a hit
 * always points to a page and a place.
 *
 * `sourceCatalogUri` grammar (stable, parsed strictly by `parseSourceUri`):
 *   service://projects/{projectId}/regions/{regionId}
 *   service://projects/{projectId}/regions/{regionId}/rows/{rowNumber}   (a table region's body row, from 1)
 *   service://projects/{projectId}/specifications/{specificationId}
 *   service://projects/{projectId}/specifications/{specificationId}/facets/{facetId}
 *   service://projects/{projectId}/documents/{documentId}/pages/{pageNumber}
 */

/**
 * `entityTypes` values: region = regions of drawing sheets, specification = sections and their facets,
 * doc = page text (pages of other documents, and the text of a drawing sheet outside its regions).
 */
export const ENTITY_TYPES = ['region', 'specification', 'doc'] as const;
export type EntityType = (typeof ENTITY_TYPES)[number];

export type SourceKind = 'region' | 'row' | 'section' | 'facet' | 'page';

export interface SourceRef {
  projectId: string;
  kind: SourceKind;
  /** regionId, `regionId/rows/n`, specificationId, facetId (with specificationId), or documentId (with page). */
  id: string;
  specificationId?: string;
  documentId?: string;
  pageNumber?: number;
}

const ID = '[a-z]{3}_[0-9a-z_]{1,80}';
const URI_PATTERNS: [RegExp, (m: RegExpExecArray) => SourceRef][] = [
  [
    new RegExp(`^service://projects/(${ID})/regions/(${ID})$`),
    (m) => ({ projectId: m[1] as string, kind: 'region', id: m[2] as string }),
  ],
  [
    new RegExp(`^service://projects/(${ID})/regions/(${ID})/rows/([1-9][0-9]{0,4})$`),
    (m) => ({ projectId: m[1] as string, kind: 'row', id: `${m[2]}/rows/${m[3]}` }),
  ],
  [
    new RegExp(`^service://projects/(${ID})/specifications/(${ID})$`),
    (m) => ({
      projectId: m[1] as string,
      kind: 'section',
      id: m[2] as string,
      specificationId: m[2] as string,
    }),
  ],
  [
    new RegExp(`^service://projects/(${ID})/specifications/(${ID})/facets/(${ID})$`),
    (m) => ({
      projectId: m[1] as string,
      kind: 'facet',
      id: m[3] as string,
      specificationId: m[2] as string,
    }),
  ],
  [
    new RegExp(`^service://projects/(${ID})/documents/(${ID})/pages/([1-9][0-9]{0,5})$`),
    (m) => ({
      projectId: m[1] as string,
      kind: 'page',
      id: `${m[2]}/${m[3]}`,
      documentId: m[2] as string,
      pageNumber: Number(m[3]),
    }),
  ],
];

/** The source a URI names, or null when it is not one of the grammar's forms. */
export function parseSourceUri(uri: string): SourceRef | null {
  if (uri.length > 400) return null;
  for (const [pattern, build] of URI_PATTERNS) {
    const match = pattern.exec(uri);
    if (match) return build(match);
  }
  return null;
}

export const sourceUris = {
  region: (projectId: string, regionId: string) => `service://projects/${projectId}/regions/${regionId}`,
  row: (projectId: string, regionId: string, rowNumber: number) =>
    `service://projects/${projectId}/regions/${regionId}/rows/${rowNumber}`,
  section: (projectId: string, specificationId: string) =>
    `service://projects/${projectId}/specifications/${specificationId}`,
  facet: (projectId: string, specificationId: string, facetId: string) =>
    `service://projects/${projectId}/specifications/${specificationId}/facets/${facetId}`,
  page: (projectId: string, documentId: string, pageNumber: number) =>
    `service://projects/${projectId}/documents/${documentId}/pages/${pageNumber}`,
};

/** One passage of a source, as the index stores it (before analysis and embedding). */
export interface Passage {
  passageId: string;
  sourceUri: string;
  entityType: EntityType;
  sourceKind: SourceKind;
  sourceId: string;
  label: string;
  documentId: string;
  fileId: string;
  fileName: string;
  pageNumber: number;
  pageEnd: number;
  box: DisplayBox | null;
  sheetNumber: string;
  regionType: string;
  drawingType: string;
  layoutType: string;
  classification: string;
  /** What names the source (sheet number and title, section number and title, labels): weighted above the text. */
  head: string;
  text: string;
  /** The source's artifact in storage (a region's crop, a section's PDF), served through an artifact path. */
  artifact: { type: 'region_crop' | 'specification_file'; key: string } | null;
}

/**
 * Text of one page that no other source holds: a page of a document that is neither a drawing sheet
 * nor a specification section, or the text of a drawing sheet outside its regions (`sheet` set).
 */
export interface DocumentPageText {
  pageNumber: number;
  lines: { text: string; x0: number; y0: number; x1: number; y1: number }[];
  sheet?: { sheetNumber: string; sheetTitle: string | null };
}

export interface FileSourceInput {
  projectId: string;
  documentId: string;
  fileId: string;
  fileName: string;
  classification: string;
  sheetTitles: Map<number, string | null>;
  regions: RegionRecord[];
  sections: SpecSectionRecord[];
  facets: FacetRecord[];
  documentPages: DocumentPageText[];
  /** The text lines of a page as extracted: a facet over several pages is cut at its page breaks. */
  pageLines?: (pageNumber: number) => string[];
}

const comparable = (line: string) => line.replace(/\s+/g, ' ').trim().toLowerCase();

/**
 * A facet's text by page: each line is placed on the first page, from the previous line's on, whose
 * extracted lines hold it (a line found on no page stays with the one before), so a passage, and a
 * citation of it, names the page that holds its words rather than the facet's whole range.
 */
export function facetPages(
  facet: Pick<FacetRecord, 'facetText' | 'pageStart' | 'pageEnd'>,
  pageLines: ((pageNumber: number) => string[]) | undefined,
): { pageNumber: number; text: string }[] {
  if (!pageLines || facet.pageEnd <= facet.pageStart)
    return [{ pageNumber: facet.pageStart, text: facet.facetText }];
  const pages = new Map<number, Set<string>>();
  for (let page = facet.pageStart; page <= facet.pageEnd; page++)
    pages.set(page, new Set(pageLines(page).map(comparable)));
  const groups: { pageNumber: number; lines: string[] }[] = [];
  let current = facet.pageStart;
  for (const line of facet.facetText.split('\n')) {
    const key = comparable(line);
    for (let page = current; key && page <= facet.pageEnd; page++) {
      if (pages.get(page)?.has(key)) {
        current = page;
        break;
      }
    }
    const last = groups.at(-1);
    if (last?.pageNumber === current) last.lines.push(line);
    else groups.push({ pageNumber: current, lines: [line] });
  }
  return groups.map((group) => ({ pageNumber: group.pageNumber, text: group.lines.join('\n') }));
}

/** Sources (distinct URIs) and passages of a document's passages: what its search index state counts. */
export function passageCounts(passages: Passage[]): { sourceCount: number; passageCount: number } {
  return {
    sourceCount: new Set(passages.map((passage) => passage.sourceUri)).size,
    passageCount: passages.length,
  };
}

/** Longest passage, in characters; longer sources are split at line breaks. */
export const PASSAGE_CHARS = 1200;

export function splitPassages(text: string, max = PASSAGE_CHARS): string[] {
  const lines = text.split(/\n+/).filter((line) => line.trim().length > 0);
  const out: string[] = [];
  let current = '';
  for (const line of lines) {
    const pieces = line.length > max ? (line.match(new RegExp(`[\\s\\S]{1,${max}}`, 'g')) ?? []) : [line];
    for (const piece of pieces) {
      if (current && current.length + piece.length + 1 > max) {
        out.push(current);
        current = '';
      }
      current = current ? `${current}\n${piece}` : piece;
    }
  }
  if (current) out.push(current);
  return out;
}

const joinLabel = (...parts: (string | null | undefined)[]) =>
  parts.filter((part): part is string => Boolean(part?.trim())).join(' · ');

/**
 * Each body row of a table region is a source of its own (a door, a finish, a fixture): its cells in order, each
 * with its column's name (`CODE: CT-1 | MATERIAL/PRODUCT: CERAMIC WALL TILE | ... | REMARKS: GROUT: MAPEI ...`),
 * its head the table's title and column names, its box the row's, so a search for a row's key finds the row and
 * an answer quotes and cites that row alone.
 */
function rowPassages(
  input: FileSourceInput,
  file: Pick<Passage, 'documentId' | 'fileId' | 'fileName' | 'classification'>,
  region: RegionRecord,
  sheetTitle: string | null,
): Passage[] {
  const table = region.table;
  if (!table) return [];
  const names = tableColumnNames(table);
  const columns = names.filter(Boolean).join(' | ');
  const title = table.title ?? region.label;
  const out: Passage[] = [];
  table.rows.forEach((row, index) => {
    const cells = row.cells.map((cell) => cell.text.trim());
    if (row.divider || cells.every((cell) => !cell)) return;
    const rowNumber = index + 1;
    const key = cells.find(Boolean) ?? '';
    out.push({
      ...file,
      passageId: `${region.regionId}/rows/${rowNumber}#0`,
      sourceUri: sourceUris.row(input.projectId, region.regionId, rowNumber),
      entityType: region.layoutType === 'drawing_sheet' ? 'region' : 'doc',
      sourceKind: 'row',
      sourceId: `${region.regionId}/rows/${rowNumber}`,
      label: joinLabel(region.sheetNumber, title, key),
      pageNumber: region.pageNumber,
      pageEnd: region.pageNumber,
      box: row.displayBox,
      sheetNumber: region.sheetNumber,
      regionType: region.regionType,
      drawingType: region.drawingType ?? '',
      layoutType: region.layoutType,
      head: joinLabel(region.sheetNumber, sheetTitle, title, columns),
      // Each cell with its column's name (`HARDWARE SET: HW-7`): the row reads alone, quoted or searched.
      text: cells
        .flatMap((cell, column) => (cell ? [names[column] ? `${names[column]}: ${cell}` : cell] : []))
        .join(' | '),
      artifact: region.cropPath ? { type: 'region_crop', key: region.cropPath } : null,
    });
  });
  return out;
}

/** Every passage of one file: its regions, its specification sections and facets, its document pages. */
export function fileSources(input: FileSourceInput): Passage[] {
  const file = {
    documentId: input.documentId,
    fileId: input.fileId,
    fileName: input.fileName,
    classification: input.classification,
  };
  const passages: Passage[] = [];
  for (const region of input.regions) {
    const sheetTitle = input.sheetTitles.get(region.pageNumber) ?? null;
    const label = joinLabel(region.sheetNumber, region.label);
    const sourceUri = sourceUris.region(input.projectId, region.regionId);
    const chunks = splitPassages(region.text);
    (chunks.length > 0 ? chunks : ['']).forEach((text, index) => {
      passages.push({
        ...file,
        passageId: `${region.regionId}#${index}`,
        sourceUri,
        entityType: region.layoutType === 'drawing_sheet' ? 'region' : 'doc',
        sourceKind: 'region',
        sourceId: region.regionId,
        label,
        pageNumber: region.pageNumber,
        pageEnd: region.pageNumber,
        box: region.displayBox,
        sheetNumber: region.sheetNumber,
        regionType: region.regionType,
        drawingType: region.drawingType ?? '',
        layoutType: region.layoutType,
        head: joinLabel(region.sheetNumber, sheetTitle, region.label),
        text,
        artifact: region.cropPath ? { type: 'region_crop', key: region.cropPath } : null,
      });
    });
    if (region.table) passages.push(...rowPassages(input, file, region, sheetTitle));
  }
  const facetsBySection = new Map<string, FacetRecord[]>();
  for (const facet of input.facets)
    facetsBySection.set(facet.specificationId, [
      ...(facetsBySection.get(facet.specificationId) ?? []),
      facet,
    ]);
  for (const section of input.sections) {
    const sectionLabel = joinLabel(section.sectionNumber, section.sectionTitle);
    const sectionFields = {
      ...file,
      artifact: section.pdfPath ? { type: 'specification_file' as const, key: section.pdfPath } : null,
      entityType: 'specification' as const,
      box: null,
      sheetNumber: '',
      regionType: '',
      drawingType: '',
      layoutType: 'specification_page',
    };
    const facets = facetsBySection.get(section.specificationId) ?? [];
    passages.push({
      ...sectionFields,
      passageId: `${section.specificationId}#0`,
      sourceUri: sourceUris.section(input.projectId, section.specificationId),
      sourceKind: 'section',
      sourceId: section.specificationId,
      label: sectionLabel,
      pageNumber: section.pageStart,
      pageEnd: section.pageEnd,
      head: `Section ${sectionLabel}`,
      text: facets.map((facet) => facet.facetLabel).join('\n'),
    });
    for (const facet of facets) {
      const label = joinLabel(section.sectionNumber, facet.facetLabel);
      let index = 0;
      for (const page of facetPages(facet, input.pageLines)) {
        // Cut by page when the lines say where each sits; otherwise the passage spans the facet's range.
        const single = input.pageLines !== undefined;
        for (const text of splitPassages(page.text)) {
          passages.push({
            ...sectionFields,
            passageId: `${facet.facetId}#${index++}`,
            sourceUri: sourceUris.facet(input.projectId, section.specificationId, facet.facetId),
            sourceKind: 'facet',
            sourceId: facet.facetId,
            label,
            pageNumber: page.pageNumber,
            pageEnd: single ? page.pageNumber : facet.pageEnd,
            head: `Section ${section.sectionNumber} ${section.sectionTitle} · ${facet.facetLabel}`,
            text,
          });
        }
      }
    }
  }
  for (const page of input.documentPages) {
    const sourceUri = sourceUris.page(input.projectId, input.documentId, page.pageNumber);
    const label = page.sheet
      ? joinLabel(page.sheet.sheetNumber, page.sheet.sheetTitle, 'sheet text')
      : joinLabel(input.fileName, `p. ${page.pageNumber}`);
    // Searched heading: what the sheet prints (its number and title), not this service's words: `sheet
    // text` in every such heading matched the word `sheet` of any query at the heading's weight.
    const head = page.sheet ? joinLabel(page.sheet.sheetNumber, page.sheet.sheetTitle) : label;
    let index = 0;
    let group: DocumentPageText['lines'] = [];
    const flush = () => {
      if (group.length === 0) return;
      passages.push({
        ...file,
        passageId: `${input.documentId}_${page.pageNumber}#${index++}`,
        sourceUri,
        entityType: 'doc',
        sourceKind: 'page',
        sourceId: `${input.documentId}/${page.pageNumber}`,
        label,
        pageNumber: page.pageNumber,
        pageEnd: page.pageNumber,
        box: {
          left: Math.min(...group.map((line) => line.x0)),
          top: Math.min(...group.map((line) => line.y0)),
          right: Math.max(...group.map((line) => line.x1)),
          bottom: Math.max(...group.map((line) => line.y1)),
        },
        sheetNumber: page.sheet?.sheetNumber ?? '',
        regionType: '',
        drawingType: '',
        layoutType: page.sheet ? 'drawing_sheet' : 'document_page',
        head,
        text: group.map((line) => line.text).join('\n'),
        artifact: null,
      });
      group = [];
    };
    let length = 0;
    for (const line of page.lines) {
      if (!line.text.trim()) continue;
      if (length + line.text.length > PASSAGE_CHARS) {
        flush();
        length = 0;
      }
      group.push(line);
      length += line.text.length + 1;
    }
    flush();
  }
  return passages;
}
