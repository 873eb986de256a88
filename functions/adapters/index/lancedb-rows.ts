import { Field, FixedSizeList, Float32, Int32, Schema, Utf8 } from 'apache-arrow';
import type { HitPassage, IndexedPassage, SearchFilter } from '../../core/search/ports.ts';
import type { Passage } from '../../core/search/sources.ts';

/** The rows of the LanceDB passages table: its schema, and passages to rows and back. */

/**
 * What a hit shows, but for its text, as one JSON column: a search reads its hits' columns one by
 * one (about a third of a millisecond each), so the hits read five columns, not twenty. The filter
 * columns stay for the filters. Tables written before this column read their hits from the others.
 */
export const DISPLAY = 'display';

export type Row = Record<string, unknown>;

const COLUMNS = [
  'passage_id',
  'source_uri',
  'entity_type',
  'source_kind',
  'source_id',
  'label',
  'document_id',
  'file_id',
  'file_name',
  'file_name_lower',
  'page_number',
  'page_end',
  'box',
  'sheet_number',
  'sheet_key',
  'region_type',
  'drawing_type',
  'layout_type',
  'classification',
  'head',
  'text',
  'body_tokens',
  'artifact',
];

export function passagesSchema(dimension: number): Schema {
  const text = (name: string) => new Field(name, new Utf8(), false);
  return new Schema([
    ...COLUMNS.filter((name) => !['page_number', 'page_end', 'box', 'artifact'].includes(name)).map(text),
    new Field('box', new Utf8(), true),
    new Field('artifact', new Utf8(), true),
    new Field(DISPLAY, new Utf8(), true),
    new Field('page_number', new Int32(), false),
    new Field('page_end', new Int32(), false),
    text('head_tokens'),
    new Field('vector', new FixedSizeList(dimension, new Field('item', new Float32(), true)), false),
  ]);
}

export const quote = (value: string) => `'${value.replaceAll("'", "''")}'`;

/** The SQL filter of a search (every value quoted; column names are ours). */
export function whereClause(filter: SearchFilter): string | null {
  const parts: string[] = [];
  if (filter.entityTypes?.length) parts.push(`entity_type IN (${filter.entityTypes.map(quote).join(', ')})`);
  if (filter.regionType) parts.push(`region_type = ${quote(filter.regionType)}`);
  if (filter.layoutType) parts.push(`layout_type = ${quote(filter.layoutType)}`);
  if (filter.drawingType) parts.push(`drawing_type = ${quote(filter.drawingType)}`);
  if (filter.sheetKey) parts.push(`sheet_key = ${quote(filter.sheetKey)}`);
  if (filter.classification) parts.push(`classification = ${quote(filter.classification)}`);
  if (filter.pageNumber !== undefined)
    parts.push(
      `page_number <= ${Math.trunc(filter.pageNumber)} AND page_end >= ${Math.trunc(filter.pageNumber)}`,
    );
  if (filter.fileName) parts.push(`strpos(file_name_lower, ${quote(filter.fileName.toLowerCase())}) > 0`);
  if (filter.fileIds)
    parts.push(filter.fileIds.length ? `file_id IN (${filter.fileIds.map(quote).join(', ')})` : 'false');
  if (filter.sourceUris)
    parts.push(
      filter.sourceUris.length ? `source_uri IN (${filter.sourceUris.map(quote).join(', ')})` : 'false',
    );
  return parts.length > 0 ? parts.join(' AND ') : null;
}

export function toRow(passage: IndexedPassage): Row {
  return {
    passage_id: passage.passageId,
    source_uri: passage.sourceUri,
    entity_type: passage.entityType,
    source_kind: passage.sourceKind,
    source_id: passage.sourceId,
    label: passage.label,
    document_id: passage.documentId,
    file_id: passage.fileId,
    file_name: passage.fileName,
    file_name_lower: passage.fileName.toLowerCase(),
    page_number: passage.pageNumber,
    page_end: passage.pageEnd,
    box: passage.box ? JSON.stringify(passage.box) : null,
    sheet_number: passage.sheetNumber,
    sheet_key: passage.sheetKey,
    region_type: passage.regionType,
    drawing_type: passage.drawingType,
    layout_type: passage.layoutType,
    classification: passage.classification,
    head: passage.head,
    text: passage.text,
    head_tokens: passage.headTokens,
    body_tokens: passage.bodyTokens,
    artifact: passage.artifact ? JSON.stringify(passage.artifact) : null,
    [DISPLAY]: JSON.stringify(displayOf(passage)),
    vector: passage.vector,
  };
}

type Display = Omit<HitPassage, 'passageId' | 'sourceUri' | 'head' | 'text'>;

function displayOf(passage: HitPassage): Display {
  return {
    entityType: passage.entityType,
    sourceId: passage.sourceId,
    label: passage.label,
    documentId: passage.documentId,
    fileId: passage.fileId,
    fileName: passage.fileName,
    pageNumber: passage.pageNumber,
    pageEnd: passage.pageEnd,
    sheetNumber: passage.sheetNumber,
    box: passage.box,
  };
}

export function hitFromRow(row: Row): HitPassage {
  const display =
    typeof row[DISPLAY] === 'string' ? (JSON.parse(row[DISPLAY]) as Display) : displayOf(fromRow(row));
  return {
    ...display,
    passageId: String(row.passage_id),
    sourceUri: String(row.source_uri),
    head: String(row.head),
    text: String(row.text),
  };
}

export function fromRow(row: Row): Passage {
  return {
    passageId: String(row.passage_id),
    sourceUri: String(row.source_uri),
    entityType: row.entity_type as Passage['entityType'],
    sourceKind: row.source_kind as Passage['sourceKind'],
    sourceId: String(row.source_id),
    label: String(row.label),
    documentId: String(row.document_id),
    fileId: String(row.file_id),
    fileName: String(row.file_name),
    pageNumber: Number(row.page_number),
    pageEnd: Number(row.page_end),
    box: typeof row.box === 'string' ? (JSON.parse(row.box) as Passage['box']) : null,
    sheetNumber: String(row.sheet_number),
    regionType: String(row.region_type),
    drawingType: String(row.drawing_type),
    layoutType: String(row.layout_type),
    classification: String(row.classification),
    head: String(row.head),
    text: String(row.text),
    artifact: typeof row.artifact === 'string' ? (JSON.parse(row.artifact) as Passage['artifact']) : null,
  };
}

/** What a read returns: the passage, not its analyzed tokens (the largest column, read by the indexes only). */
export const SELECTED = COLUMNS.filter((name) => name !== 'body_tokens');
/** What a search hit reads from a table with the display column. */
export const HIT_COLUMNS = ['passage_id', 'source_uri', 'head', 'text', DISPLAY];
