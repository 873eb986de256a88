/**
 * A synthetic region passage, as the benches that fill an index without extracting anything write them
 * (synthetic-index.ts into the local stack's index, search-sizing into an index on the S3 emulator). No side
 * effects: importing it opens no client.
 */

/** Passage `i` of synthetic file `fileNumber`: a region of sheet `sheet` with the given head and text. */
export const syntheticRegionPassage = (
  projectId: string,
  fileNumber: number,
  i: number,
  fields: { sheet: string; head: string; text: string; regionType: string },
) => {
  const file = String(fileNumber).padStart(26, '0');
  return {
    passageId: `reg_${fileNumber}_${i}#0`,
    sourceUri: `service://projects/${projectId}/regions/reg_${file}_${i}_0`,
    entityType: 'region' as const,
    sourceKind: 'region' as const,
    sourceId: `reg_${fileNumber}_${i}`,
    label: `${fields.sheet} · DETAIL ${i % 12}`,
    documentId: `doc_${file}`,
    fileId: `fil_${file}`,
    fileName: `set-${fileNumber}.pdf`,
    pageNumber: 1 + (i % 50),
    pageEnd: 1 + (i % 50),
    box: { left: 10, top: 10, right: 200, bottom: 200 },
    sheetNumber: fields.sheet,
    regionType: fields.regionType,
    drawingType: '',
    layoutType: 'drawing_sheet',
    classification: 'plans',
    head: fields.head,
    text: fields.text,
    artifact: null,
  };
};
