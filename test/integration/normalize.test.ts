import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { entities } from '../../functions/adapters/dynamodb/table.ts';
import { dynamo } from '../../functions/shared/clients.ts';
import { contentStore, projectTotalsWriter } from '../../functions/shared/wiring/adapters.ts';
import { drawingSheetPdf, specificationPdf } from '../fixtures/pdfs.ts';
import {
  api,
  createOrg,
  createProject,
  startIngest,
  type TestOrg,
  waitForJobEnd,
  waitForProject,
} from './helpers.ts';

interface RegionEntity {
  regionId: string;
  fileId: string;
  pageNumber: number;
  regionType: string;
  normalizedData: Record<string, unknown> | null;
}

describe('region normalization', () => {
  let org: TestOrg;
  let projectId: string;
  let sheetDocument: { documentId: string; fileId: string };
  let original: RegionEntity[];
  const normalize = (body: Record<string, unknown>, key = org.apiKey, project = projectId) =>
    api(`/api/open/v1/projects/${project}/regions/normalize`, { method: 'POST', key, body });
  const overview = async () =>
    (await api(`/api/open/v1/projects/${projectId}/overview`, { key: org.apiKey })).body.overview;
  const regionsOfSheet = async () =>
    (
      (
        await api(`/api/open/v1/projects/${projectId}/regions?fileId=${sheetDocument.fileId}&compact=true`, {
          key: org.apiKey,
        })
      ).body.regions as RegionEntity[]
    ).sort((a, b) => a.regionId.localeCompare(b.regionId));

  beforeAll(async () => {
    org = await createOrg();
    projectId = String((await createProject(org.apiKey, 'Normalize')).body.project.id);
    await waitForProject(org.apiKey, projectId);
    const jobId = await startIngest(org.apiKey, projectId, [
      {
        fileName: 'A-101.pdf',
        bytes: await drawingSheetPdf('A-101', 'FIRST FLOOR PLAN'),
        classification: 'plans',
      },
      { fileName: 'spec-09-29-00.pdf', bytes: await specificationPdf() },
    ]);
    await waitForJobEnd(org.apiKey, jobId);
    const documents = (await api(`/api/open/v1/projects/${projectId}/documents`, { key: org.apiKey })).body
      .documents as { documentId: string; fileId: string; fileName: string }[];
    sheetDocument = documents.find((document) => document.fileName === 'A-101.pdf') as typeof sheetDocument;
    original = await regionsOfSheet();
  }, 300_000);

  it('counts every region an ingest normalized, and schedules nothing when none is missing', async () => {
    // Act
    const before = await overview();
    const reply = await normalize({});
    // Assess
    expect(original.length).toBeGreaterThan(1);
    expect(original.every((region) => region.normalizedData !== null)).toBe(true);
    expect(before.counts.normalizedRegions).toBe(before.counts.regions);
    expect(before.capabilities.canNormalize).toBe(false);
    expect(reply.status).toBe(200);
    expect(reply.body.normalization).toEqual({
      scheduledDocumentCount: 0,
      skippedDocumentCount: 2,
      mode: 'missing_normalized_regions',
      jobId: null,
    });
    expect(reply.body.project.id).toBe(projectId);
    expect(reply.body.overview.counts.regions).toBe(before.counts.regions);
  });

  it('refuses bad input with 400 and keys without jobs:write with 403; unknown documents match nothing (200, jobId null)', async () => {
    // Prepare
    const other = await createOrg();
    const readOnly = await org.keyWith(['jobs:read']);
    // Act
    const replies = await Promise.all([
      normalize({ mode: 'everything' }),
      normalize({ documentIds: [] }),
      normalize({ documentIds: ['doc_unknown'] }),
      normalize({ extra: true }),
      normalize({}, other.apiKey),
      normalize({}, readOnly),
    ]);
    // Assess
    expect(replies.map((reply) => reply.status)).toEqual([400, 400, 200, 400, 404, 403]);
    expect(replies[2]?.body.normalization).toEqual({
      scheduledDocumentCount: 0,
      skippedDocumentCount: 1,
      mode: 'missing_normalized_regions',
      jobId: null,
    });
    expect(replies[4]?.body.error.code).toBe('project_not_found');
  });

  it('repairs regions whose normalized data was cleared, in a free repair job listed with the jobs', async () => {
    // Prepare: clear the normalized data of the sheet's regions (as an engine upgrade would leave
    // them), recount the file's summary and the project as the pipeline does.
    for (const region of original) {
      await dynamo.send(
        new UpdateCommand({
          TableName: process.env.TABLE_NAME,
          Key: entities.region.key(
            projectId,
            region.fileId,
            region.pageNumber,
            Number(region.regionId.split('_').pop()),
          ),
          UpdateExpression: 'SET normalizedData = :none',
          ExpressionAttributeValues: { ':none': null },
        }),
      );
    }
    await contentStore().recountFile(projectId, sheetDocument.documentId, sheetDocument.fileId);
    await projectTotalsWriter().saveTotals(
      org.orgId,
      projectId,
      await contentStore().projectTotals(projectId),
    );
    const cleared = await overview();
    const listedCleared = await regionsOfSheet();
    // Act
    const scheduled = await normalize({ documentIds: [sheetDocument.documentId] });
    const job = await waitForJobEnd(org.apiKey, String(scheduled.body.normalization.jobId));
    const after = await overview();
    const repaired = await regionsOfSheet();
    const listed = (await api(`/api/open/v1/projects/${projectId}/jobs`, { key: org.apiKey })).body.jobs as {
      id: string;
      kind: string;
    }[];
    const again = await normalize({});
    // Assess
    expect(listedCleared.every((region) => region.normalizedData === null)).toBe(true);
    expect(cleared.counts.normalizedRegions).toBe(cleared.counts.regions - original.length);
    expect(cleared.capabilities.canNormalize).toBe(true);
    expect(cleared.nextAction).toBe('normalize');
    expect(scheduled.status).toBe(202);
    expect(scheduled.body.normalization).toMatchObject({
      scheduledDocumentCount: 1,
      skippedDocumentCount: 0,
    });
    expect(job).toMatchObject({
      kind: 'region_normalization',
      status: 'completed',
      displayName: 'Normalize regions of 1 document',
      billing: { creditsDebited: 0, creditsReserved: 0 },
    });
    expect(
      job.files.map((file: { documentId: string; status: string }) => [file.documentId, file.status]),
    ).toEqual([[sheetDocument.documentId, 'ready']]);
    // The same engine on the same page gives back exactly what the ingest wrote.
    expect(repaired).toEqual(original);
    expect(after.counts.normalizedRegions).toBe(after.counts.regions);
    expect(after.capabilities.canNormalize).toBe(false);
    expect(after.nextAction).toBeNull();
    expect(listed.find((entry) => entry.id === job.id)?.kind).toBe('region_normalization');
    expect(again.status).toBe(200);
    expect(again.body.normalization.jobId).toBeNull();
  });
});
