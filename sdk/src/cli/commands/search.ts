import Table from 'cli-table3';
import type { SourceSearchResponse } from '../../types.ts';

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
