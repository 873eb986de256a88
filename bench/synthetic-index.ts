/**
 * Synthetic passages for the search benches: construction vocabulary, abbreviations, sheet and
 * section numbers, from a deterministic generator (runs are comparable), written into a project's
 * index as one file with its document row and an `indexed` state, as the pipeline would leave them.
 * Import it after the local stack is started (the adapters read the stack's environment).
 */
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { entities } from '../functions/adapters/dynamodb/table.ts';
import { ANALYZER_VERSION } from '../functions/core/search/analyzer.ts';
import terms from '../functions/core/search/construction-terms.json' with { type: 'json' };
import { preparePassages } from '../functions/core/search/index-file.ts';
import { dynamo } from '../functions/shared/clients.ts';
import { embedder, searchIndexStates, sourceIndex } from '../functions/shared/wiring/search.ts';
import { syntheticRegionPassage } from './synthetic-passage.ts';

let seed = 20261123;
const random = () => {
  seed = (seed * 1103515245 + 12345) % 2 ** 31;
  return seed / 2 ** 31;
};
export const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)] as T;
export const vocabulary = [
  ...new Set(
    terms.abbreviations
      .flatMap((row) => row.slice(1).join(' ').split(' '))
      .concat(terms.masterformat.flatMap((row) => String(row[1]).split(' '))),
  ),
].filter((word) => word.length > 2);
export const abbreviations = terms.abbreviations.map((row) => row[0] as string);
export const sheetNumber = () =>
  `${pick(['A', 'S', 'M', 'E', 'P', 'C', 'L'])}-${Math.floor(random() * 900) + 100}`;
const sectionNumber = () => pick(terms.masterformat)[0] as string;
const sentence = () =>
  Array.from({ length: 40 + Math.floor(random() * 60) }, () =>
    random() < 0.08 ? pick(abbreviations) : random() < 0.04 ? sheetNumber() : pick(vocabulary),
  ).join(' ');

/** Queries like the ones people type: a sheet number, an abbreviation and a word, three words. */
export const syntheticQueries = (count: number) =>
  Array.from({ length: count }, (_, i) =>
    i % 4 === 0
      ? sheetNumber()
      : i % 4 === 1
        ? `${pick(abbreviations)} ${pick(vocabulary)}`
        : `${pick(vocabulary)} ${pick(vocabulary)} ${pick(vocabulary)}`,
  );

/** Writes one file of `passages` synthetic region passages (number `fileNumber`) into the project's index. */
export async function indexSyntheticFile(input: {
  projectId: string;
  location: string;
  fileNumber: number;
  passages: number;
}): Promise<void> {
  const { projectId, location, fileNumber } = input;
  const fileId = `fil_${String(fileNumber).padStart(26, '0')}`;
  const documentId = `doc_${String(fileNumber).padStart(26, '0')}`;
  const passages = Array.from({ length: input.passages }, (_, i) => {
    const sheet = sheetNumber();
    return syntheticRegionPassage(projectId, fileNumber, i, {
      sheet,
      head: `${sheet} ${sectionNumber()}`,
      text: sentence(),
      regionType: pick(['notes', 'schedule', 'view', 'legend']),
    });
  });
  const model = embedder();
  const prepared = await preparePassages(model, passages);
  await sourceIndex().replaceFile(
    location,
    { embedder: model.id, dimension: model.dimension, analyzer: ANALYZER_VERSION },
    fileId,
    prepared,
  );
  await dynamo.send(
    new PutCommand({
      TableName: process.env.TABLE_NAME,
      Item: {
        ...entities.document.key(projectId, documentId),
        entity: 'document',
        documentId,
        fileId,
        fileName: `set-${fileNumber}.pdf`,
        jobId: 'job_bench',
      },
    }),
  );
  await searchIndexStates().setSearchIndexState(projectId, documentId, {
    status: 'indexed',
    sourceCount: input.passages,
    passageCount: input.passages,
    indexedAt: new Date().toISOString(),
    error: null,
  });
}
