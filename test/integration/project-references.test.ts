import { beforeAll, describe, expect, it } from 'vitest';
import { drawingSheetPdf } from '../fixtures/pdfs.ts';
import {
  api,
  createOrg,
  createProject,
  startIngest,
  type TestOrg,
  waitForJobEnd,
  waitForProject,
} from './helpers.ts';

interface Reference {
  text: string;
  sheetNormalized: string;
  target?: { pageNumber: number; regionId: string | null; documentId?: string } | null;
}
interface RegionEntity {
  regionId: string;
  normalizedData: { sheetReferences: Reference[] } | null;
}

describe('references across the files of a project', () => {
  let org: TestOrg;
  let projectId: string;
  const documents = async () =>
    (await api(`/api/open/v1/projects/${projectId}/documents`, { key: org.apiKey })).body.documents as {
      documentId: string;
      fileId: string;
      fileName: string;
    }[];
  const referencesTo = async (fileId: string, sheet: string) =>
    (
      (
        await api(`/api/open/v1/projects/${projectId}/regions?fileId=${fileId}&limit=100`, {
          key: org.apiKey,
        })
      ).body.regions as RegionEntity[]
    ).flatMap((region) =>
      (region.normalizedData?.sheetReferences ?? []).filter(
        (reference) => reference.sheetNormalized === sheet,
      ),
    );
  const ingest = async (fileName: string, bytes: Uint8Array) =>
    waitForJobEnd(
      org.apiKey,
      await startIngest(org.apiKey, projectId, [{ fileName, bytes, classification: 'plans' }]),
    );

  beforeAll(async () => {
    org = await createOrg();
    projectId = String((await createProject(org.apiKey, 'References')).body.project.id);
    await waitForProject(org.apiKey, projectId);
  }, 120_000);

  it('keeps a reference to a sheet no file holds yet, and resolves it when a later job brings the sheet', async () => {
    // Prepare: the plan calls out 3/A-501, a sheet of a file that arrives in a later job.
    await ingest('A-101.pdf', await drawingSheetPdf('A-101', 'FIRST FLOOR PLAN'));
    const plan = (await documents()).find((document) => document.fileName === 'A-101.pdf');
    const before = await referencesTo(String(plan?.fileId), 'A-501');
    // Act
    await ingest('A-501.pdf', await drawingSheetPdf('A-501', 'WALL TYPES'));
    const details = (await documents()).find((document) => document.fileName === 'A-501.pdf');
    const after = await referencesTo(String(plan?.fileId), 'A-501');
    const own = await referencesTo(String(details?.fileId), 'A-501');
    // Assess
    expect(before.length).toBeGreaterThan(0);
    expect(before.every((reference) => reference.target === null)).toBe(true);
    expect(after).toHaveLength(before.length);
    for (const reference of after)
      expect(reference.target).toMatchObject({ pageNumber: 1, documentId: details?.documentId });
    // A reference within its own file names no other document.
    expect(own.length).toBeGreaterThan(0);
    for (const reference of own) {
      expect(reference.target).toMatchObject({ pageNumber: 1 });
      expect(reference.target?.documentId).toBeUndefined();
    }
  }, 300_000);

  it('resolves a new file’s references against the sheets earlier jobs brought', async () => {
    // Act: another plan calling out A-501, which the project now holds.
    await ingest('A-102.pdf', await drawingSheetPdf('A-102', 'SECOND FLOOR PLAN'));
    const all = await documents();
    const plan = all.find((document) => document.fileName === 'A-102.pdf');
    const details = all.find((document) => document.fileName === 'A-501.pdf');
    const references = await referencesTo(String(plan?.fileId), 'A-501');
    // Assess
    expect(references.length).toBeGreaterThan(0);
    for (const reference of references)
      expect(reference.target).toMatchObject({ pageNumber: 1, documentId: details?.documentId });
  }, 300_000);
});
