import { beforeAll, describe, expect, it } from 'vitest';
import { outlinedSheetPdf } from '../fixtures/pdfs.ts';
import {
  api,
  createOrg,
  createProject,
  startIngest,
  type TestOrg,
  waitForJobEnd,
  waitForProject,
} from './helpers.ts';

interface Hit {
  sourceCatalogUri: string;
  snippet: string;
  location: { fileName: string; pageNumber: number; sheetNumber: string | null };
}

describe('a sheet without a text layer', () => {
  let org: TestOrg;
  let projectId: string;
  let job: { status: string };

  beforeAll(async () => {
    org = await createOrg();
    projectId = String((await createProject(org.apiKey, 'Outlined')).body.project.id);
    await waitForProject(org.apiKey, projectId);
    const jobId = await startIngest(org.apiKey, projectId, [
      {
        fileName: 'roof.pdf',
        bytes: await outlinedSheetPdf('A-201', 'ROOF PLAN', 'ZENITH LIFT'),
        classification: 'plans',
      },
    ]);
    job = await waitForJobEnd(org.apiKey, jobId);
  }, 600_000);

  it('is read whole: a word printed only in its drawing area is found by source-search', async () => {
    // Act
    const reply = await api(`/api/open/v1/projects/${projectId}/source-search`, {
      method: 'POST',
      key: org.apiKey,
      body: { query: 'zenith', mode: 'exact' },
    });

    // Assess
    expect(job.status).toBe('completed');
    expect(reply.status).toBe(200);
    const hit = (reply.body.hits as Hit[])[0];
    expect(hit?.location).toMatchObject({ fileName: 'roof.pdf', pageNumber: 1, sheetNumber: 'A-201' });
    expect(hit?.snippet.toUpperCase()).toContain('ZENITH');
  });

  it('has its number and title read by OCR from the title block', async () => {
    const reply = await api(`/api/open/v1/projects/${projectId}/sheets`, { key: org.apiKey });
    expect(reply.status).toBe(200);
    expect(reply.body.sheets).toHaveLength(1);
    expect(reply.body.sheets[0]).toMatchObject({
      sheetNumber: 'A-201',
      sheetTitle: 'ROOF PLAN',
      textSource: 'ocr',
      identification: { numberSource: 'titleBlock', titleSource: 'titleBlock' },
    });
  });
});
