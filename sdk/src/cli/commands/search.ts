import Table from 'cli-table3';
import type { RegionTable, SourceSearchResponse } from '../../types.ts';

const oneLine = (text: string, max: number) => {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
};

/** Hits as a table: rank, score, sheet or section, file, page and snippet. */
export function searchTable(result: SourceSearchResponse): string {
  if (!result.hits.length) return `No hits for "${result.query}".`;
  const table = new Table({
    head: ['#', 'score', 'sheet / section', 'file', 'page', 'snippet'],
    colWidths: [4, 7, 28, 22, 6, 60],
    wordWrap: true,
    style: { head: [], border: [] },
  });
  result.hits.forEach((hit, index) => {
    const page =
      hit.location.pageEnd && hit.location.pageEnd !== hit.location.pageNumber
        ? `${hit.location.pageNumber}-${hit.location.pageEnd}`
        : String(hit.location.pageNumber);
    table.push([
      String(index + 1),
      hit.score.toFixed(2),
      oneLine(hit.source.label, 60),
      oneLine(hit.location.fileName, 40),
      page,
      oneLine(hit.snippet, 160),
    ]);
  });
  return `${table.toString()}\n${result.hits.length} hits; open one with: psa open <sourceCatalogUri> (--json shows them)`;
}

/** A region's table: its title, then its header rows over its body rows, as printed. */
export function regionTableText(found: RegionTable, projectId: string): string {
  const { table } = found;
  const grid = new Table({
    head: table.header.length
      ? (table.header.at(-1) ?? []).map((cell, column) => headOf(table.header, column, cell))
      : [],
    wordWrap: true,
    style: { head: [], border: [] },
  });
  for (const row of table.rows) grid.push(row.cells.map((cell) => oneLine(cell.text, 60)));
  const title = table.title ?? found.label;
  return `${found.sheetNumber || `page ${found.pageNumber}`} · ${title}\n${grid.toString()}\n${table.rows.length} rows; as CSV: psa table ${projectId} ${found.regionId} --csv`;
}

/** A column's heading: its header rows' texts joined (a heading merged over columns named in each). */
function headOf(header: readonly string[][], column: number, last: string): string {
  const parts: string[] = [];
  for (const row of header) {
    const text = row[column] ?? '';
    if (text && parts.at(-1) !== text) parts.push(text);
  }
  return oneLine(parts.join(' ') || last, 40);
}
