import { describe, expect, it } from 'vitest';
import { contentIds, type SheetRecord } from '../../functions/core/content/model.ts';
import { newId } from '../../functions/core/ids.ts';
import { contentFingerprint } from '../../functions/core/revisions/content-fingerprint.ts';
import { linkRevisedSheets } from '../../functions/core/revisions/link-revised-sheets.ts';
import type { RevisionStore } from '../../functions/core/revisions/ports.ts';
import { contentStore, revisionStore } from '../../functions/shared/wiring/adapters.ts';
import type { GeneratedSheet } from '../fixtures/pdfs.ts';
import { issuedSet, revisedSecondFloor } from '../fixtures/revised-set.ts';
import { readyDocument } from './content-fixtures.ts';

const log = { info: () => undefined };

/** One file of drawing sheets written as the pipeline writes it (fingerprints from the notes), in a job. */
async function writeSheets(projectId: string, jobId: string, fileName: string, sheets: GeneratedSheet[]) {
  const fileId = newId('fil');
  const documentId = newId('doc');
  const records: SheetRecord[] = sheets.map((sheet, index) => ({
    projectId,
    sheetId: contentIds.sheet(fileId, index + 1),
    documentId,
    fileId,
    fileName,
    fileNameLower: fileName.toLowerCase(),
    pageNumber: index + 1,
    sheetNumber: sheet.sheetNumber,
    sheetTitle: sheet.title,
    discipline: { code: 'A', label: 'Architectural', printedPrefix: 'A', setSpecific: false },
    revisions: sheet.revisions.map((row) => ({
      mark: row.mark,
      description: row.description,
      date: row.date,
    })),
    pageSize: { width: 2592, height: 1728, name: 'ARCH D' },
    textSource: 'textLayer',
    confidence: 1,
    regionCount: 0,
    fingerprint: contentFingerprint(['ARCHITECT INC.', 'GYMNASIUM RENOVATION', sheet.title, ...sheet.notes]),
  }));
  const document = {
    ...readyDocument({
      orgId: 'org_test',
      projectId,
      fileId,
      documentId,
      fileName,
      classification: 'plans',
      pageCount: sheets.length,
    }),
    jobId,
  };
  await contentStore().writeFileContent(projectId, fileId, {
    document,
    sheets: records,
    regions: [],
    sections: [],
    facets: [],
  });
  return { fileId, jobId, sheetIds: records.map((record) => record.sheetId) };
}

const linksOf = async (projectId: string, fileId: string) =>
  (await revisionStore().sheetsOfFile(projectId, fileId)).map((sheet) => ({
    sheetId: sheet.sheetId,
    revisionOf: sheet.revisionOf?.sheetId ?? null,
    supersededBy: sheet.supersededBy,
  }));

describe('revision links against DynamoDB Local', () => {
  it('links a revised sheet to its earlier printing, and a retried step changes nothing', async () => {
    // Prepare
    const projectId = newId('prj');
    const issued = await writeSheets(projectId, newId('job'), 'set.pdf', issuedSet);
    const revised = await writeSheets(projectId, newId('job'), 'sk-01.pdf', [revisedSecondFloor]);
    const input = { projectId, jobId: revised.jobId, fileId: revised.fileId };

    // Act
    const first = await linkRevisedSheets({ revisions: revisionStore(), log }, input);
    const retried = await linkRevisedSheets({ revisions: revisionStore(), log }, input);

    // Assess
    expect(first.links).toEqual([
      {
        sheetId: revised.sheetIds[0],
        revisionOf: { sheetId: issued.sheetIds[1], confidence: expect.any(Number) },
      },
    ]);
    expect(first.links[0]?.revisionOf.confidence).toBeGreaterThanOrEqual(0.8);
    expect(retried.links).toEqual(first.links);
    expect(await linksOf(projectId, issued.fileId)).toEqual([
      { sheetId: issued.sheetIds[0], revisionOf: null, supersededBy: null },
      { sheetId: issued.sheetIds[1], revisionOf: null, supersededBy: revised.sheetIds[0] },
      { sheetId: issued.sheetIds[2], revisionOf: null, supersededBy: null },
    ]);
  });

  it('reads a link written before as linked, and refuses to supersede a sheet twice', async () => {
    // Prepare
    const projectId = newId('prj');
    const issued = await writeSheets(projectId, newId('job'), 'set.pdf', issuedSet);
    const one = await writeSheets(projectId, newId('job'), 'sk-01.pdf', [revisedSecondFloor]);
    const two = await writeSheets(projectId, newId('job'), 'sk-02.pdf', [revisedSecondFloor]);
    const previousSheetId = issued.sheetIds[1] as string;

    // Act
    const outcomes = [
      await revisionStore().link(projectId, {
        previousSheetId,
        sheetId: one.sheetIds[0] as string,
        confidence: 0.9,
      }),
      await revisionStore().link(projectId, {
        previousSheetId,
        sheetId: one.sheetIds[0] as string,
        confidence: 0.9,
      }),
      await revisionStore().link(projectId, {
        previousSheetId,
        sheetId: two.sheetIds[0] as string,
        confidence: 0.9,
      }),
    ];

    // Assess
    expect(outcomes).toEqual([
      { kind: 'linked' },
      { kind: 'linked' },
      { kind: 'already_superseded', by: one.sheetIds[0] },
    ]);
    expect(await linksOf(projectId, two.fileId)).toEqual([
      { sheetId: two.sheetIds[0], revisionOf: null, supersededBy: null },
    ]);
  });

  it('appends a job that read the candidates before another job linked them to the chain: one current printing', async () => {
    // Prepare: the second revision read the project while the issued A-102 was current.
    const projectId = newId('prj');
    const issued = await writeSheets(projectId, newId('job'), 'set.pdf', issuedSet);
    const one = await writeSheets(projectId, newId('job'), 'sk-01.pdf', [revisedSecondFloor]);
    const staleCandidates = (
      await revisionStore().candidateSheets(projectId, { fileId: newId('fil') })
    ).filter((sheet) => sheet.fileId === issued.fileId);
    const readBeforeTheOtherJob: RevisionStore = {
      sheetsOfFile: (...args) => revisionStore().sheetsOfFile(...args),
      candidateSheets: async () => staleCandidates,
      sheetLinks: (...args) => revisionStore().sheetLinks(...args),
      link: (...args) => revisionStore().link(...args),
    };

    // Act
    await linkRevisedSheets(
      { revisions: revisionStore(), log },
      { projectId, jobId: one.jobId, fileId: one.fileId },
    );
    // The second revision's file is written once the first is linked (else the first would match it).
    const two = await writeSheets(projectId, newId('job'), 'sk-02.pdf', [revisedSecondFloor]);
    const late = await linkRevisedSheets(
      { revisions: readBeforeTheOtherJob, log },
      { projectId, jobId: two.jobId, fileId: two.fileId },
    );

    // Assess: issued A-102 -> sk-01 -> sk-02, and only sk-02 is current.
    expect(late.links.map((link) => link.revisionOf.sheetId)).toEqual([one.sheetIds[0]]);
    expect([
      ...(await linksOf(projectId, issued.fileId)).slice(1, 2),
      ...(await linksOf(projectId, one.fileId)),
      ...(await linksOf(projectId, two.fileId)),
    ]).toEqual([
      { sheetId: issued.sheetIds[1], revisionOf: null, supersededBy: one.sheetIds[0] },
      { sheetId: one.sheetIds[0], revisionOf: issued.sheetIds[1], supersededBy: two.sheetIds[0] },
      { sheetId: two.sheetIds[0], revisionOf: one.sheetIds[0], supersededBy: null },
    ]);
  });

  it('never links two sheets of one job, whatever their files', async () => {
    // Prepare: the set and the same sheet again, in another file of the same job.
    const projectId = newId('prj');
    const jobId = newId('job');
    await writeSheets(projectId, jobId, 'set.pdf', issuedSet);
    const again = await writeSheets(projectId, jobId, 'a-102.pdf', [revisedSecondFloor]);

    // Act
    const outcome = await linkRevisedSheets(
      { revisions: revisionStore(), log },
      { projectId, jobId, fileId: again.fileId },
    );

    // Assess
    expect(outcome).toEqual({ links: [], unlinked: 1 });
  });
});
