import type { Table } from '../../engine/model.ts';
import { NotFoundError } from '../errors.ts';
import type { ProjectStore } from '../projects/ports.ts';
import { requireProject } from '../projects/queries.ts';
import { contentIds } from './model.ts';
import type { ContentReader } from './ports.ts';

export class RegionNotFoundError extends NotFoundError {
  constructor() {
    super('region_not_found', 'No region with this id in the project.');
  }
}

export class TableNotFoundError extends NotFoundError {
  constructor() {
    super(
      'table_not_found',
      'This region prints no ruled table (only schedules, legends, indexes and logs drawn as grids carry one).',
    );
  }
}

export interface RegionTable {
  regionId: string;
  label: string;
  regionType: string;
  fileId: string;
  fileName: string;
  pageNumber: number;
  sheetNumber: string;
  table: Table;
}

/**
 * The table of one region.
 * Input: the caller's organization, the project id, the region id.
 * Output: the region's identity and its table (header rows, body rows with cells and boxes).
 * Steps: ownership first (404 project_not_found); the region id names its file and page, whose regions are
 * read (404 region_not_found for an id of nothing); a region without a table is 404 table_not_found.
 */
export async function readRegionTable(
  deps: { projects: ProjectStore; content: ContentReader },
  input: { orgId: string; projectId: string; regionId: string },
): Promise<RegionTable> {
  const project = await requireProject(deps.projects, input.orgId, input.projectId);
  const place = contentIds.parseRegion(input.regionId);
  if (!place) throw new RegionNotFoundError();
  const regions = await deps.content.regions(
    project,
    { fileId: place.fileId, pageNumber: place.page },
    { limit: place.index + 1, position: null },
  );
  const region = regions.items.find((candidate) => candidate.regionId === input.regionId);
  if (!region) throw new RegionNotFoundError();
  if (!region.table) throw new TableNotFoundError();
  return {
    regionId: region.regionId,
    label: region.label,
    regionType: region.regionType,
    fileId: region.fileId,
    fileName: region.fileName,
    pageNumber: region.pageNumber,
    sheetNumber: region.sheetNumber,
    table: region.table,
  };
}

/**
 * A cell as a CSV field (RFC 4180): quoted when it holds a comma, a quote or a line break. A cell a spreadsheet
 * would run as a formula (`=`, `+`, `@`, a tab or carriage return first, or `-` before a letter) gets a leading
 * apostrophe (OWASP's CSV injection rule); numbers and dimensions (`-5`, `-`, `- 2"`) stay as printed.
 */
const csvField = (text: string): string => {
  const safe = /^(?:[=+@\t\r]|-[^\d\s.-])/.test(text) ? `'${text}` : text;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
};

/** The table as CSV: its header rows, then its body rows (a divider row's text in its first column). */
export function tableCsv(table: Table): string {
  const lines = [...table.header, ...table.rows.map((row) => row.cells.map((cell) => cell.text))].map(
    (cells) => cells.map(csvField).join(','),
  );
  return `${lines.join('\r\n')}\r\n`;
}
